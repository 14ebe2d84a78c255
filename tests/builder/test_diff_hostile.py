"""`diff` on games that `validate` accepts with warnings: options without a value, empty or
missing attributes. Every such game gives a changelog, never an internal error (exit 3)."""
from __future__ import annotations

import re

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from fuzzseed import FUZZ_SEED
from redteam.xml_shapes import GAME
from textedit import replaced
from generator.builder.diff import diff_games, format_changes
from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
from generator.read.importer import import_xml_bytes

TEXT = GAME.read_text(encoding="utf-8")
WHEN = '<option name="when" value="before:redsPurchase"/>'
_ATTRIBUTE = re.compile(r'\s[A-Za-z]+="[^"]*"')
ATTRIBUTES = [m.span() for m in _ATTRIBUTE.finditer(TEXT) if m.start() > TEXT.index("<game>")]


def test_diff_of_a_trigger_whose_when_has_no_value(tmp_path, capsys):
    valueless = tmp_path / "valueless.xml"
    valueless.write_text(replaced(TEXT, WHEN, '<option name="when"/>'), encoding="utf-8")
    assert main(["validate", str(valueless)]) == 0  # accepted, with a warning (TG108)
    capsys.readouterr()
    assert main(["diff", str(GAME), str(valueless)]) == 0
    out = capsys.readouterr().out
    assert "now fires (no value) (was before redsPurchase)" in out
    assert main(["diff", str(valueless), str(GAME)]) == 0
    assert "now fires before redsPurchase (was (no value))" in capsys.readouterr().out


def _mutated(choices: list[tuple[int, int]]) -> str:
    """The fixture game with some attributes removed (0), emptied (1) or set to a space (2)."""
    text, edits = TEXT, sorted({ATTRIBUTES[i % len(ATTRIBUTES)]: how for i, how in choices}.items(), reverse=True)
    for (start, end), how in edits:
        name = text[start:end].split("=", 1)[0]
        text = text[:start] + ("", f'{name}=""', f'{name}=" "')[how] + text[end:]
    return text


ORIGINAL, _ = import_xml_bytes(TEXT.encode("utf-8"), "original.xml")


@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2)), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
@seed(FUZZ_SEED)
def test_diff_never_fails_on_empty_or_missing_attributes(choices):
    try:
        mutated, _ = import_xml_bytes(_mutated(choices).encode("utf-8"), "mutated.xml")
    except DiagnosticError:
        return  # refused with a located diagnostic: what the command line reports, exit 1 or 2
    for old, new in ((ORIGINAL, mutated), (mutated, ORIGINAL)):
        changes = diff_games(old, new)
        for fmt in ("text", "markdown", "json"):
            format_changes(changes, fmt, "old.xml", "new.xml")
