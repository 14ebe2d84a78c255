"""The `import MOD.xml --base BASE -o SPEC.yaml` command: finding the base, refusing circular
chains of bases, naming the base in the spec, and writing the overlay generator.builder.extract makes."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from generator.core.diagnostics import (EXIT_ERRORS, EXIT_OK, Diagnostic, DiagnosticError, Position,
                                        display_path)
from generator.builder.extract import extract
from generator.read.safexml import read_input
from generator.write.yamlform import Flow


def resolve_base(base: str) -> tuple[Path, object]:
    """The base file and how the overlay names it: an existing path, or MAP/GAME.xml found as base: finds it."""
    from generator.speclang.basegame import find_base

    path = Path(base)
    if path.is_file():
        return path.resolve(), None
    if path.exists():  # a folder, FIFO or device: read_input says which (a FIFO is never opened to wait)
        read_input(path)
    parts = Path(base).parts
    if len(parts) == 2 and parts[1].endswith(".xml"):
        found, hint = find_base(parts[0], parts[1], Path.cwd())
        if found is not None:
            return found, {"map": parts[0], "game": parts[1]}
        raise DiagnosticError([Diagnostic("TG050", f"base game not found: {base}", Position("--base"), hint)],
                              2)
    raise DiagnosticError([Diagnostic("TG001", f"base game not found: {base}", Position("--base"),
                                      "give a game XML, a spec, or MAP/GAME.xml of a map in TRIPLEA_MAPS")], 2)


def check_base_chain(base_path: Path, output: Path) -> None:
    """Refuse a base whose chain of mod specs leads back to the output (or to itself), at the base: line."""
    from generator.speclang.basegame import find_base
    from generator.speclang.overlay import is_mod
    from generator.read.yamlio import LocatedDict, load_yaml_file

    seen = [output.resolve()]
    path = base_path.resolve()
    naming: Position | None = None
    while True:
        if path in seen:
            what = "the file being written" if path == seen[0] else display_path(path)
            raise DiagnosticError([Diagnostic(
                "TG082", f"the chain of bases leads back to {what}: a mod cannot be based on itself",
                naming or Position("--base"), "base the mod on a game XML, or on a spec that does not name this one")],
                2)
        seen.append(path)
        if path.suffix not in (".yaml", ".yml"):
            return
        data = load_yaml_file(path)
        if not is_mod(data) or not isinstance(data["mod"], LocatedDict):
            return
        header = data["mod"]
        base = header.get("base")
        naming = header.position_of("base") if "base" in header else header.pos
        if isinstance(base, dict):
            found, _ = find_base(base.get("map"), base.get("game"), path.parent)
        else:
            found, _ = find_base(None, str(base) if base is not None else None, path.parent)
        if found is None:
            return  # the build reports it
        path = found.resolve()


def base_reference(base_path: Path, named, output: Path):
    """{map, game} when the base is a game of a map folder that base: finds by name, else a relative path."""
    from generator.speclang.basegame import find_base

    if named is None and base_path.suffix == ".xml" and base_path.parent.name == "games":
        folder = base_path.parent.parent
        folder = folder.parent if folder.name == "map" else folder
        found, _ = find_base(folder.name, base_path.name, output.resolve().parent)
        if found is not None and found.resolve() == base_path.resolve():
            named = {"map": folder.name, "game": base_path.name}
    if named is not None:
        return Flow(named)
    return Path(os.path.relpath(base_path, output.resolve().parent)).as_posix()


def extract_command(mod_xml: str, base: str, output: str) -> int:
    """`import MOD.xml --base BASE -o SPEC.yaml`: write the overlay; warnings when it is not exact."""
    from generator.read.importer import import_xml_file
    from generator.builder.pipeline import load_base_game
    from generator.core.writer import write_file_atomically

    out = Path(output)
    base_path, named = resolve_base(base)
    check_base_chain(base_path, out)
    mod, warnings = import_xml_file(mod_xml)
    text, problems = extract(load_base_game(base_path), mod, base_reference(base_path, named, out), out)
    for diagnostic in sorted(warnings + problems, key=Diagnostic.sort_key):
        print(diagnostic.format(), file=sys.stderr)
    written = write_file_atomically(out, text.encode("utf-8"))
    print(display_path(written))
    # The overlay is written even when a form could not say everything: the rest is the modder's start.
    return EXIT_ERRORS if any(d.severity == "error" for d in problems) else EXIT_OK
