"""Game notes for the rules of a spec: every rule with its text and how far the
engine enforces it, as TripleA shows them in its game notes window."""
from __future__ import annotations

from collections import Counter

from generator.render.templates import environment
from generator.model.rulerecord import RuleRecord

STATUS_LABELS = {"enforced": "enforced", "partial": "partly enforced", "notes": "not enforced"}
# Row colours in the notes table (TripleA shows notes with Swing's HTML 3.2, which knows bgcolor).
STATUS_COLORS = {"partial": "#fff2cc", "notes": "#f4cccc"}


def status_counts(records: list[RuleRecord]) -> dict[str, int]:
    counts = Counter(record.status for record in records)
    return {status: counts.get(status, 0) for status in STATUS_LABELS}


def rules_notes_html(title: str, version: str | None, base: str | None, records: list[RuleRecord]) -> str:
    template = environment().get_template("notes/rules.html.j2")
    return template.render(title=title, version=version, base=base, rules=records, labels=STATUS_LABELS,
                           colors=STATUS_COLORS, counts=status_counts(records))
