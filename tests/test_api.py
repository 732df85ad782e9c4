from typing import Any

import pytest
from rest_framework.test import APIClient

URL = "/api/v1/calculate/"


def post(api: APIClient, body: Any, **headers: str) -> Any:
    return api.post(URL, body, format="json", headers=headers)


def test_it_scores_a_lost_hand_game_and_explains_it(api: APIClient) -> None:
    response = post(
        api, {"variant": "skat", "game": {"contract": "clubs", "matadors": 2, "hand": True, "declarer_card_points": 52}}
    )
    assert response.status_code == 200
    assert response.json() == {
        "won": False,
        "game_value": 48,
        "scores": [-96, 0, 0],
        "schneider": False,
        "schwarz": False,
        "overbid": False,
        "breakdown": ["with 2", "game 3", "hand 4", "4 × 12 (clubs) = 48", "lost: 2 × 48 = −96"],
    }


def test_it_needs_no_login_and_no_csrf_token() -> None:
    api = APIClient(enforce_csrf_checks=True)
    response = post(api, {"variant": "lieutenant-skat", "game": {"contract": "grand", "declarer_card_points": 95}})
    assert response.status_code == 200
    assert response.json()["scores"] == [3, 0]


def test_it_accepts_every_field_of_the_documented_shape(api: APIClient) -> None:
    body = {
        "variant": "skat",
        "scheme": "standard",
        "rules": {"kontra_re": True, "ramsch": True},
        "players": 4,
        "declarer": 1,
        "dealer": 0,
        "game": {
            "contract": "grand",
            "matadors": -1,
            "declarer_card_points": 95,
            "schwarz": None,
            "hand": True,
            "ouvert": False,
            "announced": "schneider",
            "won": None,
            "bid": 48,
            "kontra": True,
            "re": False,
        },
    }
    response = post(api, body)
    assert response.status_code == 200, response.json()
    # without 1, game 2, hand 3, schneider 4, announced 5: 5 × 24 = 120, Kontra ×2 = 240.
    assert response.json()["scores"] == [0, 240, 0, 0]


def test_a_ramsch_takes_points_per_seat(api: APIClient) -> None:
    body = {
        "variant": "skat",
        "rules": {"ramsch": True},
        "game": {"contract": "ramsch", "ramsch": {"card_points": [0, 75, 45], "jungfrau": [0], "pushes": 0}},
    }
    response = post(api, body)
    assert response.status_code == 200, response.json()
    assert response.json()["scores"] == [0, -150, 0]
    assert response.json()["won"] is None


def test_bad_input_gets_a_message_per_field(api: APIClient) -> None:
    body = {
        "variant": "skat",
        "game": {"contract": "clubs", "matadors": 12, "declarer_card_points": 121, "announced": "schneider"},
    }
    response = post(api, body)
    assert response.status_code == 400
    errors = response.json()["game"]
    assert set(errors) == {"matadors", "declarer_card_points", "announced"}
    assert errors["matadors"] == ["Must be with or without 1 to 11 (+n or −n)."]
    assert errors["declarer_card_points"] == ["Must be between 0 and 120."]
    assert errors["announced"] == ["Schneider and Schwarz can be announced in hand games only."]


def test_type_errors_are_reported_by_field_too(api: APIClient) -> None:
    response = post(api, {"variant": "whist", "game": {"contract": "clubs", "matadors": "many"}})
    assert response.status_code == 400
    body = response.json()
    assert "variant" in body
    assert "matadors" in body["game"]


def test_an_option_the_variant_lacks_is_refused(api: APIClient) -> None:
    body = {
        "variant": "officers-skat",
        "rules": {"bock": True},
        "game": {"contract": "hearts", "matadors": 1, "declarer_card_points": 70},
    }
    response = post(api, body)
    assert response.status_code == 400
    assert response.json() == {"rules": {"bock": ["This variant has no option “bock”."]}}


def test_rule_and_game_errors_are_reported_together(api: APIClient) -> None:
    body = {
        "variant": "skat",
        "rules": {"kontra_re": "yes"},
        "game": {"contract": "clubs", "matadors": 0, "declarer_card_points": 70},
    }
    response = post(api, body)
    assert response.status_code == 400
    assert set(response.json()) == {"rules", "game"}


@pytest.mark.parametrize("body", ["[1, 2]", "not json", '{"variant": "skat", "game": []}', "{}"])
def test_malformed_bodies_are_a_400_not_a_500(api: APIClient, body: str) -> None:
    response = api.post(URL, body, content_type="application/json")
    assert response.status_code == 400


def test_a_nested_error_beside_its_parent_does_not_break_the_response(api: APIClient) -> None:
    body = {
        "variant": "skat",
        "rules": {"ramsch": True},
        "game": {"contract": "ramsch", "matadors": 1, "ramsch": {"card_points": [10, 10, 10]}},
    }
    response = post(api, body)
    assert response.status_code == 400
    assert response.json()["game"]["ramsch"]["card_points"] == ["Must add up to 120, not 30."]
    assert response.json()["game"]["matadors"] == ["A Ramsch has no declarer: leave this out."]


def test_get_is_not_allowed(api: APIClient) -> None:
    assert api.get(URL).status_code == 405


def test_the_variants_list_names_options_with_defaults(api: APIClient) -> None:
    response = api.get("/api/v1/variants/")
    assert response.status_code == 200
    variants = {item["variant"]: item for item in response.json()}
    assert set(variants) == {
        "skat",
        "officers-skat",
        "admirals-skat",
        "harlequin-skat",
        "lieutenant-skat",
        "officers-schafkopf",
    }
    officers = {option["name"]: option for option in variants["officers-skat"]["options"]}
    assert officers["schneider"]["default"] == "under-30"
    assert officers["schneider"]["choices"] == ["30-or-fewer", "under-30"]
    assert variants["skat"]["schemes"] == ["standard", "seeger-fabian"]


def test_the_variants_list_words_each_variants_options_in_its_own_word_for_kontra(api: APIClient) -> None:
    for language, title, help_text in (
        ("en", "Stoß and Re", "The opponents may double the game (Stoß, ×2)"),
        ("de", "Stoß und Re", "Die Gegenspieler dürfen das Spiel verdoppeln (Stoß, ×2)"),
    ):
        variants = {
            item["variant"]: item for item in api.get("/api/v1/variants/", headers={"Accept-Language": language}).json()
        }
        schafkopf = {option["name"]: option for option in variants["officers-schafkopf"]["options"]}
        assert schafkopf["kontra_re"]["title"] == title
        assert schafkopf["kontra_re"]["help"].startswith(help_text)
        skat = {option["name"]: option for option in variants["skat"]["options"]}
        assert skat["kontra_re"]["title"] == title.replace("Stoß", "Kontra")
        assert skat["bock_on_kontra"]["title"] == ("Bock after Kontra" if language == "en" else "Bock nach Kontra")


def test_the_schema_documents_the_calculator(api: APIClient) -> None:
    response = api.get("/api/v1/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
    schema = response.json()
    operation = schema["paths"]["/api/v1/calculate/"]["post"]
    assert operation["operationId"] == "calculate"
    request = schema["components"]["schemas"]["CalculateRequest"]
    assert {"variant", "scheme", "rules", "players", "declarer", "game"} <= set(request["properties"])
    assert set(request["required"]) == {"variant", "game"}
    rules = request["properties"]["rules"]
    # Every value some variant takes; Officers' Schafkopf alone also has its own uneven tariff.
    assert rules["properties"]["schneider"]["enum"] == ["30-or-fewer", "under-30", "uneven"]


def test_the_docs_page_loads_nothing_from_elsewhere(api: APIClient) -> None:
    response = api.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "http://" not in html
    assert "https://" not in html
    assert "//cdn" not in html


@pytest.mark.parametrize(("variant", "dealer"), [("skat", 3), ("officers-skat", 2), ("lieutenant-skat", -1)])
def test_a_dealer_who_is_not_at_the_table_is_refused(api: APIClient, variant: str, dealer: int) -> None:
    body = {"variant": variant, "dealer": dealer, "game": {"contract": "hearts", "declarer_card_points": 70}}
    response = post(api, body)
    assert response.status_code == 400
    assert "dealer" in response.json()
