"""`new`: start a spec, either a mod of an existing game or a small complete game."""
from __future__ import annotations

import re
from pathlib import Path

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position
from generator.render.templates import environment
from generator.core.writer import write_file_atomically


def new_spec(name: str, base: str | None, directory: str) -> Path:
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "my_mod"
    target = Path(directory) / f"{stem}.yaml"
    if target.exists():
        raise DiagnosticError([Diagnostic("TG071", "file exists; not overwritten", Position(str(target)),
                                          "choose another name or remove the file")])
    if base is not None:
        map_name, _, game = base.partition("/")
        if not game.endswith(".xml") or not map_name:
            raise DiagnosticError([Diagnostic("TG071", f"--base must be MAP/GAME.xml, not '{base}'",
                                              Position("--base"), "e.g. world_war_ii_global/ww2global40_2nd_edition.xml")])
        text = environment().get_template("scaffold/mod.yaml.j2").render(name=name, map_name=map_name, game=game)
    else:
        text = environment().get_template("scaffold/game.yaml.j2").render(name=name, stem=stem)
    return write_file_atomically(target, text.encode("utf-8"))
