"""The API's JSON: Flask's provider, writing compact answers with orjson, keys in the order the service built them.

Why: a seat's every turn is an answer carrying its game (about 12 KB, Ruins drawing all 50 ruin cards), and its
encoding was the largest part of that answer the scripted move never pays. Encoding a move's answer with its next
turn (11.8 KB): ``json.dumps`` 175 us, with keys unsorted and the ruin cards written from texts kept by identity
(this module until 2026-12-04) 75 us, orjson 13 us (timeit, quiet machine; docs/performance.md, seat clients).

What is written is the same JSON as before, read back: keys keep their order (never sorted), non-string keys are
written as strings, and what orjson leaves to Flask (dates and times, dataclasses, anything else it does not know)
goes through Flask's own ``default``, so a date is written as Flask writes it. Two differences in the bytes, not in
what a client reads: text outside ASCII is written as UTF-8 rather than as ``\\u`` escapes, and there are no
spaces after separators. An answer orjson cannot write is written by ``json.dumps`` as before (compact, every
character outside ASCII escaped): an integer past 64 bits, or a lone surrogate (a refusal quoting the text it
refuses); so is an indented answer (Flask's debug mode), and whatever Flask writes with ``dumps``.
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as BaseResponse

OPTIONS = (
    orjson.OPT_NON_STR_KEYS  # (json.dumps writes an int key as a string: so does this)
    | orjson.OPT_PASSTHROUGH_DATETIME  # (to Flask's default: an HTTP date, as Flask writes one)
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_APPEND_NEWLINE  # (Flask ends an answer with a newline)
)


class AnswerJSON(DefaultJSONProvider):
    sort_keys = False

    def response(self, *args: Any, **kwargs: Any) -> BaseResponse:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)  # (indented: json.dumps)
        body = self.written(self._prepare_response_obj(args, kwargs))
        return self._app.response_class(cast(str, body), mimetype=self.mimetype)  # (bytes are a body too)

    def written(self, obj: Any) -> bytes:
        """``obj`` as a compact answer (ending with a newline): orjson's bytes, else ``json.dumps``'s."""
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS)
        except orjson.JSONEncodeError:  # (an int past 64 bits; a lone surrogate quoted in a refusal's message)
            return (self.dumps(obj, separators=(",", ":")) + "\n").encode()  # (escaped: ASCII)
