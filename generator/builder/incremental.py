"""Warm builds (watch, the build server, the language server: processes that build many times):
after an edit, only what the edit feeds is done again, and the result is a cold build's, byte for byte.

Per spec, kept from its last build that rendered: the located YAML and the stamps of the other
inputs of its model (the base game file, the macro templates). The next build diffs its YAML with
that one (generator.builder.depmap); the sections of the game XML no changed path feeds are taken
from the last render without fingerprinting the model for them. Anything the map is unsure of
(an unknown or everywhere-reaching path, another base or macro file, a mod of a mod) leaves every
section to its fingerprint: the warm render's own check, the path before the map.

The validator's findings are kept too, keyed by everything they are made of (the rendered bytes,
the line -> YAML position map, the engine): an edit that leaves the game as it was (a comment, the
assets, the scenarios) is not validated again."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.builder import depmap
from generator.builder.pipeline import CompiledGame, LoadedSpec, add_rules_to_notes, compile_game, load_spec
from generator.core.diagnostics import Diagnostic, display_path
from generator.read.yamlio import load_yaml_file, load_yaml_text
from generator.render.sections import SECTION_FIELDS

KEPT_SPECS = 8  # a build server serves a few specs at a time; more are simply built cold again


@dataclass
class _Kept:
    data: Any  # the located YAML of the spec's last rendered build
    inputs: tuple | None  # the stamps of the rest of what its model is made of (None: unknown)


_kept: dict[str, _Kept] = {}
_findings: dict[str, tuple[tuple, list[Diagnostic]]] = {}  # spec -> (what they were made of, findings)
# spec -> its generator.check.warmchecks AttachmentsMemo, StructureMemo, MapIndexMemo, SectionCheckMemo (of
# the initial state) and its generator.check.warmschema.SchemaMemo
_memos: dict[str, tuple] = {}
last_plan: dict[str, object] = {}  # the last build's decision, for tests and the benchmark: paths, sections


def compile_warm(spec_path: str | os.PathLike, text: str | None = None) -> CompiledGame:
    """compile_spec for a warm process."""
    path = Path(spec_path)
    owner = str(path.resolve())
    data = load_yaml_file(path) if text is None else load_yaml_text(text, display_path(path))
    kept = _kept.get(owner)  # kept until a build renders: an edit that fails is diffed against the last good one
    paths = depmap.changed_paths(kept.data, data) if kept is not None else None
    stale = depmap.stale_sections(paths) if paths is not None else None
    loaded = load_spec(path, text=text, data=data)
    inputs = _inputs(loaded, data)
    if kept is None or inputs is None or kept.inputs != inputs:
        stale = None
    if loaded.rules:
        add_rules_to_notes(loaded)
    unchanged = frozenset(SECTION_FIELDS) - stale if stale is not None else frozenset()
    last_plan.clear()
    last_plan.update(paths=paths, stale=stale)
    # what is kept must be what the kept sections were rendered from: a render that completes but
    # whose XML fails to parse (TG042) leaves sections of a model no kept YAML describes
    _kept.pop(owner, None)
    compiled = compile_game(loaded, owner, unchanged)
    _kept[owner] = _Kept(data, inputs)
    while len(_kept) > KEPT_SPECS:
        _kept.pop(next(iter(_kept)))
    return compiled


def _inputs(loaded: LoadedSpec, data: Any) -> tuple | None:
    """Stamps of the model's inputs besides the spec's YAML; None: not known well enough to trust."""
    from generator.rules.macros import RULES_DIR

    base = loaded.base_path
    if base is not None and base.suffix in (".yaml", ".yml"):
        return None  # a mod of a mod: its base has inputs of its own
    spec_dir = loaded.path.resolve().parent
    files = [base] if base is not None else []
    for folder in (RULES_DIR, spec_dir / "macros", *_macro_folders(spec_dir, data)):
        if folder.is_dir():
            files += sorted(folder.rglob("*"))
    stamps = []
    for file in files:
        try:
            info = file.stat()
        except OSError:
            return None
        stamps.append((str(file), info.st_mtime_ns, info.st_size))
    return tuple(stamps)


def _macro_folders(spec_dir: Path, data: Any) -> list[Path]:
    """A mod's own macro folder (mod: macros: DIR), as load_spec finds it."""
    header = data.get("mod") if isinstance(data, dict) else None
    macros = header.get("macros") if isinstance(header, dict) else None
    return [spec_dir / str(macros)] if macros else []


def validated(compiled: CompiledGame, engine: str) -> list[Diagnostic]:
    """validate_tree's findings on the compiled game; the last ones when it is the same game."""
    from generator.check.validate import validate_tree
    from generator.check.validate import INITIALIZE_READS
    from generator.check.warmchecks import AttachmentsMemo, MapIndexMemo, SectionCheckMemo, StructureMemo
    from generator.check.warmschema import SchemaMemo

    made_of = (engine, compiled.spec_path, compiled.game.pos, compiled.xml_bytes, compiled._line_positions)
    owner = str(Path(compiled.spec_path).resolve())
    kept = _findings.get(owner)
    if kept is not None and kept[0] == made_of:
        return list(kept[1])
    memos = _memos.pop(owner, None) or (AttachmentsMemo(), StructureMemo(), MapIndexMemo(),
                                         SectionCheckMemo(INITIALIZE_READS), SchemaMemo())
    _memos[owner] = memos
    while len(_memos) > KEPT_SPECS:
        _memos.pop(next(iter(_memos)))
    for memo in memos:
        memo.line_positions, memo.fallback = compiled._line_positions, compiled.position_of(None)
        memo.rendered = compiled.rendered
    findings = validate_tree(compiled.tree, engine=engine, source=compiled.spec_path,
                             position_of=compiled.position_of, attachments_memo=memos[0], structure_memo=memos[1],
                             map_index_memo=memos[2], initialize_memo=memos[3], schema_memo=memos[4])
    _findings.pop(owner, None)
    _findings[owner] = (made_of, list(findings))
    while len(_findings) > KEPT_SPECS:
        _findings.pop(next(iter(_findings)))
    return findings
