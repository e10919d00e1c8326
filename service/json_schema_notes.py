"""What a result's field means, written beside its type for the JSON Schema of the API's answers.

``Annotated[int, Note("The game's new version.")]`` in a result's TypedDict (``service/commands/results.py``,
``service/reading/results.py``, ``service/api/responses.py``): the type says what the field holds, the note what it
means and what JSON Schema says beyond the type (a ``format``, a ``minimum``, ``enum``). The OpenAPI document's
response schemas are derived from those TypedDicts (``service.api.responses``) by pydantic, which asks each note
for its part through ``__get_pydantic_json_schema__``; the note itself imports nothing, so the modules that return
results stay as light to import as before (pydantic is imported only when the document is first built).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Note:
    """A field's description and any JSON Schema keywords that the type alone cannot say; ``schema`` replaces the
    derived schema altogether (a field whose shape another part of the document gives, such as a game's view)."""

    description: str = ""
    keywords: dict[str, Any] = field(default_factory=dict)
    schema: dict[str, Any] | None = None

    def __hash__(self) -> int:  # (pydantic may keep annotations in sets; the dicts are never changed)
        return hash((self.description, repr(self.keywords), repr(self.schema)))

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Callable[[Any], dict[str, Any]]) -> Any:
        derived = dict(self.schema) if self.schema is not None else handler(core_schema)
        if self.description:
            derived["description"] = self.description
        return {**derived, **self.keywords}


def note(description: str = "", **keywords: Any) -> Note:
    """``note("Seats that may act now.")``, ``note(format="uuid")``, ``note(minimum=1)``."""
    return Note(description, keywords)


UUID = note(format="uuid")
TIMESTAMP = note(format="date-time")
