"""What one rule of a spec became: made by the macros (generator.rules.expand), read by the
notes, the coverage report and the map folder's texts (generator.write)."""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.diagnostics import Position


@dataclass
class RuleRecord:
    """What the notes and the coverage report say about one rule."""

    id: str
    text: str
    status: str
    macro: str | None
    note: str
    pos: Position
    generated: list[str] = field(default_factory=list)  # names of the attachments it produced
    details: list[str] = field(default_factory=list)  # what the macros say players should know
    fragments: list[str] = field(default_factory=list, repr=False)  # rendered XML, one per loop iteration

    def as_json(self) -> dict:
        return {"id": self.id, "text": self.text, "status": self.status, "macro": self.macro, "note": self.note,
                "details": self.details, "generated": self.generated, "line": self.pos.line}
