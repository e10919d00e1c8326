"""Reading requests strictly: a JSON body or the query string, checked against the schemas the OpenAPI
document publishes (``service.api.schemas``), so what is documented is exactly what is accepted.

The schemas are checked by a JSON Schema validator (jsonschema-rs, Draft 2020-12 as OpenAPI 3.1 has it), compiled
once per schema; this module only words its refusals. A refusal is a ``BadRequest`` ("malformed_request") naming
the field and what it must be, or 415 "unsupported_media_type" for a body not sent as JSON. Where a value breaks
several rules, the outermost is named (a missing or unknown field before a wrong one inside). Every string of a
body (field names too) must be storable text (``service.stored_text``: no control characters, lone surrogates or
non-characters), else 400 "invalid_text"; the schemas' free-text fields say the same with ``TEXT_PATTERN``. A
schema with a ``pattern`` may name the refusal of a string that does not match it with the extension keyword
``x-refusal`` (``{"code", "message"}``); ``x-code`` gives the code of any refusal within a schema (an action's
shape: "malformed_action"; the outermost one wins). Numbers with no fractional part are integers, as in JSON
Schema: ``2.0`` is read as ``2`` where an integer is wanted.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, cast

import jsonschema_rs
from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from service.api.openapi import operation_of
from service.api.schemas import COMPONENTS, REQUEST_BODIES
from service.errors import BadRequest, ServiceError
from service.stored_text import check_text

TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
# Which of a value's own problems is named first: its kind, then its size or range, its pattern, then its fields as
# a whole, then the alternatives it fits none of (``_order``: as the hand-written checker went before it).
RANK = {"Type": 0, "Constant": 1, "Enum": 2, "MinLength": 3, "MaxLength": 3, "Minimum": 3, "Maximum": 3}
RANK |= {"MinItems": 3, "MaxItems": 3, "Pattern": 4, "MaxProperties": 5, "Required": 6}
RANK |= {"AnyOf": 10, "OneOfNotValid": 10, "OneOfMultipleValid": 10}
MAX_QUERY_DIGITS = 20
REFERENCE = re.compile(r'"#/components/schemas/([^"]+)"')


class UnsupportedMediaType(ServiceError):
    status, code = 415, "unsupported_media_type"


class PayloadTooLarge(ServiceError):
    status, code = 413, "payload_too_large"


class UriTooLong(ServiceError):
    status, code = 414, "uri_too_long"


# Compiled validators by the id of their schema (kept alive beside it, so an id is never reused): the schemas are
# module constants (``service.api.schemas``; ``action_of`` and ``options_of`` give one object per game).
_COMPILED: dict[int, tuple[dict[str, Any], dict[str, Any], jsonschema_rs.Validator]] = {}


def validator(schema: dict[str, Any]) -> jsonschema_rs.Validator:
    """``schema`` compiled, with the components it refers to by ``$ref`` (``#/components/schemas/<name>``)."""
    return _compiled(schema)[1]


def _compiled(schema: dict[str, Any]) -> tuple[dict[str, Any], jsonschema_rs.Validator]:
    """The schema as compiled (its document, ``_rooted``, and its validator)."""
    found = _COMPILED.get(id(schema))
    if found is None or found[0] is not schema:
        root = _rooted(schema)
        found = _COMPILED[id(schema)] = (schema, root, jsonschema_rs.validator_for(root))
    return found[1], found[2]


def _rooted(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as a document of its own: with the components it names (and those they name), so that its
    ``$ref``s resolve as in the OpenAPI document, and refusals' schema paths can be followed from it."""
    names: set[str] = set()
    todo = REFERENCE.findall(json.dumps(schema))
    while todo:
        name = todo.pop()
        if name not in names:
            names.add(name)
            todo += REFERENCE.findall(json.dumps(COMPONENTS[name]))
    if not names:
        return schema
    return {**schema, "components": {"schemas": {name: COMPONENTS[name] for name in sorted(names)}}}


def check(value: Any, schema: dict[str, Any], path: str = "") -> Any:
    """Raise ``BadRequest`` unless ``value`` fits ``schema``; ``path`` locates the value (``seats[1]``).

    Returns the value as the schema reads it: a number with no fractional part (``2.0``) where an integer
    is wanted is that integer, as JSON Schema has it (the document and this checker agree on it)."""
    try:
        valid = validator(schema).is_valid(value)
    except UnicodeEncodeError:  # (a lone surrogate; a body's strings were refused before: ``parse_json``)
        raise BadRequest(f"{_where(path)} holds text that is not Unicode", "invalid_text") from None
    except ValueError:  # ("Recursion limit reached": the validator reads a few hundred levels)
        raise BadRequest(f"{_where(path)} is nested too deeply") from None
    if not valid:
        raise refusal(value, schema, path)
    return _integers(value, schema) if _holds_float(value) else value


def _holds_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_float(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_float(item) for item in value)
    return False


def _integers(value: Any, schema: dict[str, Any]) -> Any:
    """A value that fits ``schema`` with every whole float where the schema wants an integer made that integer."""
    schema = _referred(schema)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            fitting = next(a for a in schema[key] if validator(a).is_valid(value))
            return _integers(value, fitting)
    if isinstance(value, float):
        return int(value) if value.is_integer() and "integer" in _types(schema) else value
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_integers(item, schema["items"]) for item in value]
    if isinstance(value, dict):
        properties, extra = schema.get("properties", {}), schema.get("additionalProperties")
        return {
            name: _integers(item, properties[name])
            if name in properties
            else _integers(item, extra)
            if isinstance(extra, dict)
            else item
            for name, item in value.items()
        }
    return value


def _types(schema: dict[str, Any]) -> list[str]:
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def _referred(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema itself, or the component its ``$ref`` names."""
    reference = schema.get("$ref")
    return COMPONENTS[reference.rsplit("/", 1)[-1]] if reference else schema


def _where(path: str) -> str:
    return f"'{path}'" if path else "the body"


def refusal(value: Any, schema: dict[str, Any], path: str = "") -> BadRequest:
    """The refusal of a value ``schema`` does not accept: its outermost problem, in a sentence."""
    root, compiled = _compiled(schema)
    try:
        error = min(compiled.iter_errors(value), key=lambda e: _order(value, e))
    except ValueError:  # ("Recursion limit reached", as in ``check``)
        return BadRequest(f"{_where(path)} is nested too deeply")
    steps = list(error.schema_path)
    if type(error.kind).__name__ == "PropertyNames":  # (its path goes on into the rule the name broke)
        steps = steps[: len(steps) - steps[::-1].index("propertyNames")]
    found, code = _follow(root, steps)
    inner = _path(path, error.instance_path)
    at = value
    for step in error.instance_path:
        at = at[step]
    refused = _explain(at, found, error, inner)
    return BadRequest(refused.message, code) if code is not None else refused


def _order(value: Any, error: Any) -> list[tuple[int, int]]:
    """Where a problem comes when a value is read from its start: a value's own problems (``RANK``) before those
    of its fields and items, which come in the order they are written; a field's name (unknown, or not a name the
    object allows) before its value."""
    key, at = [], value
    for step in error.instance_path:
        key.append((1, list(at).index(step) if isinstance(at, dict) else step))
        at = at[step]
    name = _field_named(at, error)
    if name is not None:
        return [*key, (1, list(at).index(name)), (0, -1)]
    return [*key, (0, RANK.get(type(error.kind).__name__, 9))]


def _field_named(value: Any, error: Any) -> str | None:
    """The field an object-level refusal is about: the first unknown one, or a name ``propertyNames`` refuses."""
    kind = type(error.kind).__name__
    if kind == "AdditionalProperties":
        return str(next(name for name in value if name in error.kind.unexpected))
    if kind == "PropertyNames":
        return str(error.kind.error.instance)
    return None


def _follow(root: dict[str, Any], schema_path: list[str | int]) -> tuple[dict[str, Any], str | None]:
    """The schema holding the keyword a refusal names (the last step of its path), and the outermost ``x-code``
    on the way there."""
    node: Any = root
    code = root.get("x-code")
    for step in schema_path[:-1]:
        node = node[step]
        if isinstance(node, dict) and code is None:
            code = node.get("x-code")
    return node, code


def _path(path: str, steps: list[str | int]) -> str:
    for step in steps:
        path = f"{path}[{step}]" if isinstance(step, int) else f"{path}.{step}" if path else step
    return path


def _explain(value: Any, schema: dict[str, Any], error: Any, path: str) -> BadRequest:
    kind, where = type(error.kind).__name__, _where(path)
    if kind == "Type":
        return BadRequest(f"{where} must be {' or '.join(TYPE_WORDS[k] for k in _types(schema))}")
    if kind == "Constant":
        return BadRequest(f"{where} must be {json.dumps(schema['const'])}")
    if kind == "Enum":
        return BadRequest(f"{where} must be one of {', '.join(json.dumps(e) for e in schema['enum'])}")
    if kind in ("MinLength", "MaxLength"):
        return BadRequest(f"{where} must be {schema.get('minLength', 0)} to {schema.get('maxLength')} characters long")
    if kind == "Pattern":
        if "x-refusal" in schema:
            return BadRequest(f"{where} is refused: {schema['x-refusal']['message']}", schema["x-refusal"]["code"])
        return BadRequest(f"{where} must match the pattern {schema['pattern']}")
    if kind == "Minimum":
        return BadRequest(f"{where} must be at least {schema['minimum']}")
    if kind == "Maximum":
        return BadRequest(f"{where} must be at most {schema['maximum']}")
    if kind in ("MinItems", "MaxItems"):
        return BadRequest(f"{where} must hold {schema.get('minItems', 0)} to {schema.get('maxItems')} items")
    if kind == "MaxProperties":
        return BadRequest(f"{where} may have at most {schema['maxProperties']} fields")
    if kind == "Required":
        missing = [name for name in schema["required"] if name not in value]
        return BadRequest(f"{where} is missing the field(s) {', '.join(missing)}")
    if kind == "AdditionalProperties":
        allowed = ", ".join(schema.get("properties", {})) or "none"
        return BadRequest(f"{where} has an unknown field {_field_named(value, error)!r} (allowed: {allowed})")
    if kind == "PropertyNames":
        name = str(_field_named(value, error))
        return refusal(name, schema["propertyNames"], f"{_path(path, [name])} (the name)")
    if kind in ("AnyOf", "OneOfNotValid"):
        return _none_fits(value, schema["anyOf" if kind == "AnyOf" else "oneOf"], path)
    if kind == "OneOfMultipleValid":
        return BadRequest(f"{where} fits more than one of its possible forms")
    return BadRequest(f"{where} is refused: {error.message}")  # (a rule the schemas above do not use yet)


def _none_fits(value: Any, alternatives: list[dict[str, Any]], path: str) -> BadRequest:
    """The refusal of a value that fits none of its alternatives: that of the form its ``type`` names (an
    action's ``"type": "play"``), if one does; else the forms there are."""
    names = [_referred(a).get("properties", {}).get("type", {}).get("const") for a in alternatives]
    named = value.get("type") if isinstance(value, dict) else None
    for alternative, name in zip(alternatives, names, strict=True):
        if name is not None and _same(named, name):
            return refusal(value, alternative, path)
    if len(alternatives) == 1:
        return refusal(value, alternatives[0], path)
    if all(isinstance(n, str) for n in names):
        return BadRequest(f"{_where(path)} must be an object whose 'type' is one of {', '.join(names)}")
    return BadRequest(f"{_where(path)} fits none of its possible forms")


def _same(value: Any, expected: Any) -> bool:
    """JSON equality of a ``type`` field and a form's constant: true is not 1."""
    return type(value) is type(expected) and value == expected


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number out of range: {text}")
    return number


def _no_constants(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a field appears twice in one object")
    return out


def parse_json(data: bytes) -> Any:
    """Strict JSON: UTF-8, no NaN/Infinity, finite numbers, no repeated keys; and every string storable
    text (``service.stored_text``: escapes like "\\u0000" or a lone "\\ud800" are refused, 400 invalid_text)."""
    try:
        value = json.loads(
            data.decode("utf-8"),
            parse_float=_finite,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_keys,
        )
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeError are ValueErrors
        raise BadRequest(f"the body is not valid JSON: {error}") from None
    try:
        check_text(value, "the body")
    except RecursionError:
        raise BadRequest("the body is nested too deeply") from None
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON body, checked against the request body the route's operation publishes."""
    if not request.is_json:
        raise UnsupportedMediaType("send the body as JSON with 'Content-Type: application/json'")
    try:
        data = request.get_data()
    except RequestEntityTooLarge:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        raise PayloadTooLarge(f"the body is larger than {limit // 1024} KiB, the most a request may send") from None
    published = _operation()["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return cast(dict[str, Any], check(parse_json(data), REQUEST_BODIES[published.rsplit("/", 1)[-1]]))


def _operation() -> dict[str, Any]:
    """The OpenAPI operation of the route answering this request (``service.api.openapi.described``)."""
    return operation_of(current_app.view_functions[cast(str, request.endpoint)])


def check_url_length(limit: int) -> None:
    """Refuse (414 ``uri_too_long``) a request whose target (path and query, as sent) is longer than ``limit``
    bytes; the same limit under every server (gunicorn's own, longer, answers in JSON too: ``service.serving.wsgi``)."""
    environ = request.environ
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    size = len(target) if target else len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", "")) + 1
    if size > limit:
        raise UriTooLong(f"the URL is {size} bytes long; at most {limit} are read")


def query_args() -> dict[str, Any]:
    """The query string, read through the query parameters the route's operation publishes: unknown or repeated
    names are refused; integer parameters are plain decimal numbers."""
    known = {p["name"]: p for p in _operation()["parameters"] if p["in"] == "query"}
    unknown = sorted(set(request.args) - set(known))
    if unknown:
        raise BadRequest(f"unknown query parameter(s) {', '.join(unknown)} (allowed: {', '.join(known) or 'none'})")
    out: dict[str, Any] = {}
    for name, parameter in known.items():
        values = request.args.getlist(name)
        if not values:
            continue
        if len(values) > 1:
            raise BadRequest(f"the query parameter {name!r} is given more than once")
        text = values[0]
        value: Any = text
        if parameter["schema"]["type"] == "integer":
            if not re.fullmatch(rf"-?[0-9]{{1,{MAX_QUERY_DIGITS}}}", text):
                raise BadRequest(f"the query parameter {name!r} must be a whole number, not {text[:40]!r}")
            value = int(text)
        check(value, parameter["schema"], name)
        out[name] = value
    return out
