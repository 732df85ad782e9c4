"""Golden cases from the rules texts, one file per family; each case names its source."""

import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.engine import RuleError
from matches.scoring import score_game

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load_cases() -> list[Any]:
    cases = []
    for path in FILES:
        for case in json.loads(path.read_text())["cases"]:
            cases.append(pytest.param(case, id=f"{path.stem}: {case['name']}"))
    return cases


CASES = load_cases()


def test_every_family_has_its_golden_file() -> None:
    assert [path.stem for path in FILES] == ["lieutenant", "officers", "schafkopf", "skat"]
    assert len(CASES) > 200


def _with_defaults(request: dict[str, Any]) -> dict[str, Any]:
    return {"declarer": 0, **request}


def _error_fields(error: RuleError) -> set[str]:
    return {problem.field for problem in error.errors}


@pytest.mark.parametrize("case", CASES)
def test_the_engine_scores_the_golden_case(case: dict[str, Any]) -> None:
    expect = case["expect"]
    if "errors" in expect:
        with pytest.raises(RuleError) as raised:
            score_game(_with_defaults(case["request"]))
        assert set(expect["errors"]) <= _error_fields(raised.value)
        return
    result = score_game(_with_defaults(case["request"])).result
    assert list(result.scores) == expect["scores"]
    assert result.won == expect["won"]
    assert result.game_value == expect["game_value"]
    for flag in ("schneider", "schwarz", "overbid"):
        if flag in expect:
            assert getattr(result, flag) == expect[flag], flag


@pytest.mark.parametrize("case", CASES)
def test_the_api_gives_the_same_answer(case: dict[str, Any]) -> None:
    response = APIClient().post("/api/v1/calculate/", case["request"], format="json")
    expect = case["expect"]
    if "errors" in expect:
        assert response.status_code == 400
        body = response.json()
        for field in expect["errors"]:
            node = body
            for part in field.split("."):
                assert part in node, (field, body)
                node = node[part]
        return
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["scores"], body["won"], body["game_value"]) == (expect["scores"], expect["won"], expect["game_value"])
