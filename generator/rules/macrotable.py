"""The README's macro table, made from the macro headers (templates/rules/*.xml.j2): a macro's
description and parameters are written once, in its header.

    python3 -m generator.rules.macrotable README.md     # rewrites the table between its markers

tests/rules/test_macro_table.py checks that the README's table is current."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from generator.rules.macros import CONDITION_PARAMS, NO_DEFAULT, Macro, Param, load_macros

START = "<!-- generated: macro table (python3 -m generator.rules.macrotable README.md) -->\n"
END = "<!-- end: macro table -->\n"


def _own_params(macro: Macro) -> list[Param]:
    """The parameters its header declares (the standard condition ones are described once, above the table)."""
    added = {name: Param(name, type_, default, doc) for name, (type_, default, doc) in CONDITION_PARAMS.items()}
    return [p for name, p in macro.params.items() if not (macro.takes_conditions and added.get(name) == p)]


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def macro_row(macro: Macro) -> str:
    params = _own_params(macro)
    required = ", ".join(f"`{p.name}`" for p in params if p.default is NO_DEFAULT)
    optional = ", ".join(f"`{p.name}`" for p in params if p.default is not NO_DEFAULT)
    listed = f"{required or '(none)'}; {optional}" if optional else (required or "none")
    marked = " *(conditions)*" if macro.takes_conditions else ""
    return f"| `{macro.name}`{marked} | {_cell(macro.description)} | {listed} |"


def macro_table() -> str:
    rows = ["| macro | what it does | parameters (required first) |", "| --- | --- | --- |"]
    rows += [macro_row(macro) for _, macro in sorted(load_macros().items())]
    return "\n".join(rows) + "\n"


def readme_block(text: str) -> str | None:
    """The table as it stands between the markers of a README text (None: no markers)."""
    match = re.search(re.escape(START) + "(.*?)" + re.escape(END), text, re.S)
    return match.group(1) if match else None


def update_readme(text: str) -> str:
    text, count = re.subn(re.escape(START) + ".*?" + re.escape(END), lambda _: START + macro_table() + END, text,
                          flags=re.S)
    if count != 1:
        raise ValueError(f"README has {count} blocks marked {START.strip()}")
    return text


if __name__ == "__main__":
    from generator.core.writer import write_file_atomically

    readme = Path(sys.argv[1])
    write_file_atomically(readme, update_readme(readme.read_text(encoding="utf-8")).encode("utf-8"))
