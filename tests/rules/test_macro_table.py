"""The README's macro table is made from the macro headers (generator/rules/macrotable.py): a
macro's description and parameters are written once, in its template's header."""
from __future__ import annotations

from pathlib import Path

from generator.rules.macros import load_macros
from generator.rules.macrotable import macro_row, macro_table, readme_block

REPO = Path(__file__).resolve().parents[2]


def test_the_readme_macro_table_is_the_one_the_headers_make():
    block = readme_block((REPO / "README.md").read_text(encoding="utf-8"))
    assert block is not None, "README.md has no generated macro table"
    assert block == macro_table(), "run: python3 -m generator.rules.macrotable README.md"


def test_every_macro_has_one_row_with_its_required_parameters_first():
    table = macro_table()
    macros = load_macros()
    assert len(table.splitlines()) == 2 + len(macros)
    row = macro_row(macros["national_penalty"])
    assert row.startswith("| `national_penalty` *(conditions)* | ")
    assert row.endswith(" | `player`, `amount`; `resource`, `uses` |")  # the condition parameters left out
    assert macro_row(macros["notes_only"]).endswith(" | none |")
