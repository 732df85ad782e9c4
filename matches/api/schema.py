"""The answers every operation can give besides its own, added to the generated OpenAPI schema in one place: a
refusal of the body (400, 413, 415), of the client (401 without credentials, 403 for a session without its CSRF
token, 406 for an Accept the API cannot answer, 429 for too many requests), and the shape of every error body."""

from __future__ import annotations

from typing import Any

UNSAFE = {"post", "put", "patch", "delete"}
METHODS = UNSAFE | {"get", "head", "options"}

DETAIL = "Detail"
PROBLEMS = "Problems"
CONFLICT = "Conflict"
SCHEMAS: dict[str, dict[str, Any]] = {
    DETAIL: {
        "type": "object",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
        "description": "Why the request was refused.",
    },
    PROBLEMS: {
        "type": "object",
        "additionalProperties": True,
        "description": "Messages by field (a list of texts, or the messages of the fields inside it); "
        "`non_field_errors` for the whole, `detail` for a body that could not be read.",
    },
    CONFLICT: {
        "type": "object",
        "properties": {"version": {"type": "integer", "description": "The match's version now."}},
        "additionalProperties": True,
        "description": "Messages by field, and the match's current version to look again and resend with.",
    },
}
ANSWERS = {
    "400": "Invalid input: messages by field.",
    "401": "No account (send a token or a session).",
    "403": "A change made with a session, without its CSRF token.",
    "404": "Not there, or not yours.",
    "406": "The Accept header asks for something other than JSON.",
    "413": "The body is larger than 64 KB.",
    "415": "The body is not JSON (Content-Type: application/json).",
    "429": "Too many requests: try again after Retry-After seconds.",
}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}


def common_answers(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation lists every status it can answer, each with a body."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(SCHEMAS)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method in METHODS:
                _complete(operation, method, has_ids="{" in path)
    return result


def _complete(operation: dict[str, Any], method: str, *, has_ids: bool) -> None:
    responses = operation.setdefault("responses", {})
    signed = any("knoxApiToken" in way for way in operation.get("security", []))
    wanted = ["406", "429"]
    if "requestBody" in operation:
        wanted += ["400", "413", "415"]
    if signed:
        wanted.append("401")
        if method in UNSAFE:
            wanted.append("403")
    if has_ids:
        wanted.append("404")
    for status in wanted:
        responses.setdefault(status, {"description": ANSWERS[status]})
    for status, response in responses.items():
        if status.startswith("4") and "content" not in response:
            response["content"] = {"application/json": {"schema": {"$ref": f"#/components/schemas/{_shape(status)}"}}}
    responses["429"].setdefault("headers", RETRY_AFTER)


def _shape(status: str) -> str:
    if status == "400":
        return PROBLEMS
    if status in {"409", "410"}:
        return CONFLICT
    return DETAIL
