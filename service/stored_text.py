"""What text Digsite stores: printable Unicode, checked wherever text comes in (the API, imports, the service).

Refused: control characters (C0 including NUL, DEL, C1), lone surrogates (they cannot be encoded as
UTF-8) and the Unicode non-characters (U+FDD0 to U+FDEF and the last two code points of every plane).
NUL in particular cannot be held by PostgreSQL text: a name holding one would stop the read models.

``TEXT_PATTERN`` says the same as ``text_problem`` as a regular expression, for the API's JSON Schemas
(and the OpenAPI document): the request checker and the document agree because both use it. It is
written with ``\\uXXXX`` escapes for the BMP and the astral non-characters as literal characters, so it
means the same to Python's ``re`` and to a Unicode-aware ECMA-262 or Rust engine. Lone surrogates are
not in it: such engines refuse them in a pattern, and a string holding one is no Unicode text at all
(it can only come as a JSON escape, "\\ud800"); ``text_problem`` refuses them all the same.
"""

from __future__ import annotations

import re
from typing import Any

from service.errors import BadRequest

_ASTRAL_NONCHARACTERS = "".join(chr(plane * 0x10000 + low) for plane in range(1, 17) for low in (0xFFFE, 0xFFFF))
_REFUSED_CLASS = "\\u0000-\\u001F\\u007F-\\u009F\\uFDD0-\\uFDEF\\uFFFE\\uFFFF" + _ASTRAL_NONCHARACTERS
TEXT_PATTERN = f"^[^{_REFUSED_CLASS}]*$"
NAME_PATTERN = f"^[^{_REFUSED_CLASS}]*[^\\s{_REFUSED_CLASS}][^{_REFUSED_CLASS}]*$"  # and not only spaces
_REFUSED = re.compile(f"[{_REFUSED_CLASS}\\uD800-\\uDFFF]")  # and lone surrogates (see above)


def text_problem(value: str) -> str | None:
    """Why ``value`` may not be stored (naming the first bad character), or None when it may."""
    found = _REFUSED.search(value)
    if found is None:
        return None
    point = ord(found.group())
    if point < 0x20 or 0x7F <= point <= 0x9F:
        what = "a control character"
    elif 0xD800 <= point <= 0xDFFF:
        what = "a lone surrogate"
    else:
        what = "a Unicode non-character"
    return f"holds {what} (U+{point:04X}) at position {found.start()}"


class InvalidText(BadRequest):
    code = "invalid_text"


def check_text(value: Any, what: str, path: str = "") -> None:
    """Raise ``InvalidText`` if any string in the JSON value ``value`` (keys included) may not be stored.
    The message names the value: ``what`` itself, or a path inside it (``'bot.style' in the body``)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            where = f"'{path}' in {what}" if path else what
            raise InvalidText(
                f"{where} {problem}: text may not hold control characters (tabs and line breaks included), "
                "lone surrogates or Unicode non-characters"
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            check_text(key, what, f"{inner} (the name)")
            check_text(item, what, inner)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_text(item, what, f"{path}[{i}]")
