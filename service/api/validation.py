"""Reading requests strictly: a JSON body or the query string, checked against the schemas the OpenAPI
document publishes (``service.api.schemas``), so what is documented is exactly what is accepted.

The checker knows the small part of JSON Schema those schemas use; a schema using anything else is a
programming error and fails loudly. A refusal is a ``BadRequest`` ("malformed_request") naming the
field and what it must be, or 415 "unsupported_media_type" for a body not sent as JSON. Every string of
a body (field names too) must be storable text (``service.stored_text``: no control characters, lone
surrogates or non-characters), else 400 "invalid_text"; the schemas' free-text fields say the same with
``TEXT_PATTERN``. A schema with a ``pattern`` may name the refusal of a string that does not match it
with the extension keyword ``x-refusal`` (``{"code", "message"}``); ``x-code`` gives the code of any
refusal within a schema (an action's shape: "malformed_action"). Numbers with no fractional part are
integers, as in JSON Schema: ``2.0`` is read as ``2`` where an integer is wanted.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, cast

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from service.errors import BadRequest, ServiceError
from service.stored_text import check_text

ANNOTATIONS = frozenset({"description", "examples", "title", "default", "format", "x-refusal", "x-code", "x-flag"})
KEYWORDS = ANNOTATIONS | {
    "type",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "maxProperties",
    "propertyNames",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "const",
    "anyOf",
    "oneOf",
    "$ref",
}
TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
MAX_QUERY_DIGITS = 20


class UnsupportedMediaType(ServiceError):
    status, code = 415, "unsupported_media_type"


class PayloadTooLarge(ServiceError):
    status, code = 413, "payload_too_large"


class UriTooLong(ServiceError):
    status, code = 414, "uri_too_long"


def _is(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    raise AssertionError(f"unknown JSON Schema type {kind!r}")


def check(value: Any, schema: dict[str, Any], path: str = "") -> Any:
    """Raise ``BadRequest`` unless ``value`` fits ``schema``; ``path`` locates the value (``seats[1]``).

    Returns the value as the schema reads it: a number with no fractional part (``2.0``) where an integer
    is wanted is that integer, as JSON Schema has it (the document and this checker agree on it)."""
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise AssertionError(f"schema keyword(s) {sorted(unknown)} are not supported by the request checker")
    code = schema.get("x-code")
    if code is None:
        return _check(value, schema, path)
    try:
        return _check(value, schema, path)
    except BadRequest as error:
        raise BadRequest(error.message, code) from None


def _check(value: Any, schema: dict[str, Any], path: str) -> Any:
    where = f"'{path}'" if path else "the body"
    if "$ref" in schema:
        return check(value, _resolve(schema["$ref"]), path)
    if "anyOf" in schema or "oneOf" in schema:
        return _check_alternatives(value, schema, path)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if "integer" in kinds and isinstance(value, float) and value.is_integer():
            value = int(value)
        if not any(_is(value, k) for k in kinds):
            raise BadRequest(f"{where} must be {' or '.join(TYPE_WORDS[k] for k in kinds)}")
    if "const" in schema and not _same(value, schema["const"]):
        raise BadRequest(f"{where} must be {json.dumps(schema['const'])}")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        raise BadRequest(f"{where} must be one of {', '.join(json.dumps(e) for e in schema['enum'])}")
    if isinstance(value, str):
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if len(value) < low or (high is not None and len(value) > high):
            raise BadRequest(f"{where} must be {low} to {high} characters long")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            refusal = schema.get("x-refusal")
            if refusal is not None:
                raise BadRequest(f"{where} is refused: {refusal['message']}", refusal["code"])
            raise BadRequest(f"{where} must match the pattern {schema['pattern']}")
    elif _is(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            raise BadRequest(f"{where} must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise BadRequest(f"{where} must be at most {schema['maximum']}")
    elif isinstance(value, list):
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if len(value) < low or (high is not None and len(value) > high):
            raise BadRequest(f"{where} must hold {low} to {high} items")
        return [check(item, schema.get("items", {}), f"{path}[{i}]") for i, item in enumerate(value)]
    elif isinstance(value, dict):
        return _check_object(value, schema, path)
    return value


def _same(value: Any, expected: Any) -> bool:
    """JSON equality: true is not 1 (numbers compare by value: 2 and 2.0 are the same number)."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    if _is(value, "number") and _is(expected, "number"):
        return bool(value == expected)
    return type(value) is type(expected) and value == expected


def _resolve(reference: str) -> dict[str, Any]:
    from service.api.schemas import COMPONENTS

    prefix = "#/components/schemas/"
    if not reference.startswith(prefix) or reference[len(prefix) :] not in COMPONENTS:
        raise AssertionError(f"the request checker cannot resolve {reference!r}")
    return COMPONENTS[reference[len(prefix) :]]


def _check_alternatives(value: Any, schema: dict[str, Any], path: str) -> Any:
    """``anyOf``: the first alternative the value fits; ``oneOf``: the only one. On none, the refusal of the
    alternative whose ``type`` constant the value names (an action's ``"type": "play"``), if any."""
    one = "oneOf" in schema
    alternatives: list[dict[str, Any]] = schema["oneOf" if one else "anyOf"]
    fits, refusals = [], []
    for alternative in _named_alike(value, alternatives):
        try:
            fits.append(check(value, alternative, path))
        except BadRequest as error:
            refusals.append((alternative, error))
        else:
            if not one:
                return fits[0]
    if len(fits) == 1:
        return fits[0]
    where = f"'{path}'" if path else "the body"
    if fits:
        raise BadRequest(f"{where} fits more than one of its possible forms")
    named = value.get("type") if isinstance(value, dict) else None
    for alternative, refusal in refusals:
        if named is not None and _same(named, _type_const(alternative)):
            raise refusal
    if len(alternatives) == 1:
        raise refusals[0][1]
    names = [_type_const(a) for a in alternatives]
    if all(isinstance(n, str) for n in names):
        raise BadRequest(f"{where} must be an object whose 'type' is one of {', '.join(names)}")
    raise BadRequest(f"{where} fits none of its possible forms")


def _named_alike(value: Any, alternatives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The alternatives a value could fit, judged by its ``type`` field alone: where every alternative requires
    a ``type`` of one constant (a game's actions), only those whose constant the value names (the others would
    refuse it on that field), none if it names none. So an action is checked against its own form only, instead
    of raising a refusal for each of the others; what is accepted, and each refusal, is as if all were tried."""
    if len(alternatives) < 2 or not isinstance(value, dict) or "type" not in value:
        return alternatives
    if not all(_requires_type(a) for a in alternatives):
        return alternatives
    return [a for a in alternatives if _same(value["type"], _type_const(a))]


def _requires_type(schema: dict[str, Any]) -> bool:
    form = _referred(schema)
    return "type" in form.get("required", ()) and "const" in form.get("properties", {}).get("type", {})


def _type_const(schema: dict[str, Any]) -> Any:
    return _referred(schema).get("properties", {}).get("type", {}).get("const")


def _referred(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema itself, or the one its ``$ref`` names."""
    return _resolve(schema["$ref"]) if "$ref" in schema else schema


def _check_object(value: dict[str, Any], schema: dict[str, Any], path: str) -> dict[str, Any]:
    where = f"'{path}'" if path else "the body"
    properties: dict[str, Any] = schema.get("properties", {})
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        raise BadRequest(f"{where} may have at most {schema['maxProperties']} fields")
    missing = [name for name in schema.get("required", []) if name not in value]
    if missing:
        raise BadRequest(f"{where} is missing the field(s) {', '.join(missing)}")
    extra = schema.get("additionalProperties", True)
    out: dict[str, Any] = {}
    for name, item in value.items():
        inner = f"{path}.{name}" if path else name
        if "propertyNames" in schema:
            check(name, schema["propertyNames"], f"{inner} (the name)")
        if name in properties:
            item = check(item, properties[name], inner)
        elif extra is False:
            raise BadRequest(f"{where} has an unknown field {name!r} (allowed: {', '.join(properties) or 'none'})")
        elif isinstance(extra, dict):
            item = check(item, extra, inner)
        out[name] = item
    return out


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


def json_body(schema: dict[str, Any]) -> dict[str, Any]:
    """The request's JSON body, checked against ``schema`` (an object schema)."""
    if not request.is_json:
        raise UnsupportedMediaType("send the body as JSON with 'Content-Type: application/json'")
    try:
        data = request.get_data()
    except RequestEntityTooLarge:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        raise PayloadTooLarge(f"the body is larger than {limit // 1024} KiB, the most a request may send") from None
    return cast(dict[str, Any], check(parse_json(data), schema))  # the schema's type is "object"


def check_url_length(limit: int) -> None:
    """Refuse (414 ``uri_too_long``) a request whose target (path and query, as sent) is longer than ``limit``
    bytes; the same limit under every server (gunicorn's own, longer, answers in JSON too: ``service.serving.wsgi``)."""
    environ = request.environ
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    size = len(target) if target else len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", "")) + 1
    if size > limit:
        raise UriTooLong(f"the URL is {size} bytes long; at most {limit} are read")


def query_args(parameters: list[dict[str, Any]]) -> dict[str, Any]:
    """The query string, read through OpenAPI parameter objects: unknown or repeated names are refused;
    integer parameters are plain decimal numbers."""
    known = {p["name"]: p for p in parameters if p["in"] == "query"}
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
