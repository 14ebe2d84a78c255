"""What the tests read from ../shared/reference: one parser per table, shared by every test that
checks against it (the seed rules' status tables and counts, the attachment option index).
Callers skip when ../shared is absent (conftest.SHARED_MISSING)."""
from __future__ import annotations

import re

from conftest import SHARED

REFERENCE_DIR = SHARED / "reference"
SEED_RULES = REFERENCE_DIR / "seed-rules.md"
ATTACHMENTS = REFERENCE_DIR / "attachments.md"

# seed-rules.md's status column -> the status triplea-gen's report gives a rule
STATUSES = {"ENFORCED": "enforced", "PARTIAL": "partial", "NOTES-ONLY": "notes"}
_RULE_ID = re.compile(r"S[0-9]{3}-R[0-9]+\Z")


def table_cells(line: str) -> list[str]:
    """The cells of a Markdown table row; an escaped pipe (\\|) stays inside its cell."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _table_rows(text: str):
    for line in text.splitlines():
        if line.startswith("|"):
            yield table_cells(line)


def seed_rule_statuses(seed_file: str) -> dict[str, str]:
    """Rule id -> enforced / partial / notes, from the table of the seed's section of seed-rules.md
    ("## N. Seed <seed_file> ..." up to the next section)."""
    text = SEED_RULES.read_text(encoding="utf-8")
    start = text.index(f"Seed {seed_file}")
    statuses: dict[str, str] = {}
    for cells in _table_rows(text[start:text.index("\n## ", start)]):
        if _RULE_ID.match(cells[0]):
            assert cells[0] not in statuses, f"{cells[0]} twice in seed-rules.md"
            statuses[cells[0]] = STATUSES[cells[3]]
    return statuses


def seed_rule_counts(seed_file: str) -> dict[str, int]:
    """The seed's row of seed-rules.md §8.1: how many rules, and how many enforced, partial, notes only."""
    for cells in _table_rows(SEED_RULES.read_text(encoding="utf-8")):
        if cells[0] == seed_file:
            return dict(zip(("rules", "enforced", "partial", "notes"), map(int, cells[2:6])))
    raise AssertionError(f"seed-rules.md §8.1 has no row for {seed_file}")


def current_attachment_options() -> dict[str, set[str]]:
    """Attachment class -> the options the current engine sets, from attachments.md §5 (the
    machine-readable option index; legacy spellings and rejected names left out)."""
    text = ATTACHMENTS.read_text(encoding="utf-8")
    index = text[text.index("## 5. Machine-readable option index"):text.index("Uncertainties:")]
    options = {}
    for entry in re.split(r"\n\* \*\*", index)[1:]:
        name, body = entry.split("**", 1)
        if " — modern:" in body:
            current = body.split(" — modern:")[1].split("—")[0].split("; 1.9:")[0]
        else:
            current = body.split(" — both:")[1]
        current = re.sub(r"\(\+ legacy[^)]*\)|\(rejected\)", "", current)
        options[name] = {word.rstrip("*") for word in re.findall(r"[A-Za-z]+\*?", current)}
    return options


def attachment_option_counts() -> dict[str, tuple[int, int]]:
    """Attachment class -> (options of the current engine, options of 1.9), from attachments.md §1.7
    (settable and rejected ones alike; legacy aliases and read-only properties left out)."""
    text = ATTACHMENTS.read_text(encoding="utf-8")
    table = text[text.index("### 1.7 Option counts"):text.index("## 2. Class tables")]
    counts = {}
    for cells in _table_rows(table):
        if cells[0].endswith("Attachment"):
            counts[cells[0]] = (int(re.match(r"\d+", cells[1]).group()), int(re.match(r"\d+", cells[2]).group()))
    return counts
