"""The build pipeline in one place: load -> spec check -> model -> render -> check.

`compile_cold` returns the rendered game together with a map from every
rendered XML line back to the YAML position that produced it, so that later
checks can point at the user's YAML."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from lxml import etree

from generator.speclang import basecache
from generator.model import game as m
from generator.core.gcpause import collector_paused
from generator.core.diagnostics import Collector, Diagnostic, DiagnosticError, Position, display_path
from generator.read.extras import apply_extras
from generator.read.importer import import_xml_bytes
from generator.model.looks import AssetSpec
from generator.speclang.assets import check_asset_names, read_assets
from generator.write.modfolder.texts import unused_text_warnings
from generator.speclang.overlay import is_mod, read_mod
from generator.render.templates import render_game_with_origins
from generator.read.safexml import parse_xml_bytes, read_input
from generator.write.notes import rules_notes_html
from generator.rules.expand import RuleRecord, expand_rules
from generator.speclang.fullgame import ENGINES, SpecReader, read_game
from generator.read.yamlio import LocatedDict, load_yaml_file, load_yaml_text


@dataclass
class CompiledGame:
    spec: LoadedSpec
    xml_bytes: bytes
    tree: etree._ElementTree
    _line_positions: dict[int, Position] = field(default_factory=dict, repr=False)
    # a warm render's frame and sections (generator.render.sections.last_render), None otherwise
    rendered: tuple | None = field(default=None, repr=False)

    @property
    def spec_path(self) -> str:
        return self.spec.source

    @property
    def game(self) -> m.Game:
        return self.spec.game

    @property
    def warnings(self) -> list[Diagnostic]:
        return self.spec.warnings

    @property
    def game_file(self) -> str:
        """The built XML's file name in the map folder's games/ (map.yml lists it)."""
        from generator.core.writer import safe_name

        return f"{safe_name(Path(self.spec_path).stem)}.xml"

    @cached_property
    def map_needs(self):
        """What the game asks of its map folder (generator.check.mapfolder.game_needs): the
        folder additions and the folder check both read it, so a build works it out once."""
        from generator.check.mapfolder import game_needs

        return game_needs(self.tree.getroot())

    def position_of(self, element) -> Position:
        """The YAML position behind a rendered element (the nearest enclosing one that has one)."""
        while element is not None:
            pos = self._line_positions.get(element.sourceline)
            if pos is not None:
                return pos
            element = element.getparent()
        return self.game.pos or Position(self.spec_path)


@dataclass
class LoadedSpec:
    """A spec read into the model, with what the later stages need to know about it."""

    path: Path
    game: m.Game
    warnings: list[Diagnostic]
    rules: list[RuleRecord]
    engine: str  # the engine generation the build is checked for
    base_path: Path | None = None  # a mod's base game
    assets: AssetSpec = field(default_factory=AssetSpec)  # its assets: and texts: sections

    @property
    def source(self) -> str:
        return display_path(self.path)


MAX_BASE_DEPTH = 16  # mods of mods of mods...; a real chain is two or three long


def load_spec(spec_path: str | os.PathLike, _mods_within: tuple[Path, ...] = (), edit_rules=None,
              check_assets: bool = True, text: str | None = None, data=None) -> LoadedSpec:
    """Read and check a spec (a full game or a mod of a base game), expand its rules;
    raises with every problem found. `_mods_within`: the mods whose base this spec is.
    `edit_rules`: called with the spec's rules: list, returns the list to expand instead (a
    scenario's control build leaves out the rule it backs). `check_assets`: False when only the game
    XML is wanted (a control: the assets may name a player a left-out rule makes). `text`: the spec's
    YAML as an editor holds it, unsaved (the language server), read instead of the file at spec_path.
    `data`: that YAML already read (a warm build diffs it with the last one; read, never changed here)."""
    path = Path(spec_path)
    if data is None:
        data = load_yaml_file(path) if text is None else load_yaml_text(text, display_path(path))
    collector = Collector()
    source = display_path(path)
    spec_dir = path.resolve().parent
    base_path = None
    reader = SpecReader(source, collector)
    if is_mod(data):
        chain = _mods_within + (path.resolve(),)
        game, base_path = read_mod(data, source, spec_dir, collector,
                                   lambda base: _load_base(base, chain, _base_position(data, source)))
        header = data["mod"] if isinstance(data["mod"], LocatedDict) else None
        engine_value, engine_pos = header.get("engine") if header else None, reader.pos(header)
        macros = header.get("macros") if header else None
        macro_dirs = [spec_dir / str(macros)] if macros else []
    else:
        game = read_game(data, source, collector)
        engine_value = data.get("engine") if isinstance(data, dict) else None
        engine_pos = data.position_of("engine") if isinstance(data, LocatedDict) and "engine" in data else Position(source)
        macro_dirs = []
    engine = reader.text(engine_value, "engine", engine_pos) or "current"
    if engine not in ENGINES:
        reader.error("TG033", f"engine must be one of {', '.join(ENGINES)}, not '{engine}'", engine_pos,
                     "1.9: Debian's TripleA 1.9 engine; current: today's TripleA")
    records = []
    if isinstance(data, LocatedDict) and "rules" in data and not collector.has_errors:
        rules = edit_rules(data["rules"]) if edit_rules else data["rules"]
        records = expand_rules(rules, game, source, spec_dir, collector, macro_dirs, pos=data.position_of("rules"))
    assets = read_assets(data, source, collector)
    if not collector.has_errors and check_assets:
        check_asset_names(assets, game, source, collector)
        collector.diagnostics += unused_text_warnings(game, assets, source)
        if game.geometry is not None:  # a generated map: each player's land should hang together
            from generator.mapgen.checks import split_land_warnings
            collector.diagnostics += split_land_warnings(game)
    collector.raise_if_errors()
    return LoadedSpec(path, game, collector.diagnostics, records, engine, base_path, assets)


def load_game(spec_path: str | os.PathLike) -> tuple[m.Game, list[Diagnostic]]:
    loaded = load_spec(spec_path)
    return loaded.game, loaded.warnings


def _base_position(data, source: str) -> Position:
    header = data.get("mod")
    return header.position_of("base") if isinstance(header, dict) and hasattr(header, "position_of") \
        else Position(source)


def _load_base(path: Path, chain: tuple[Path, ...], base_pos: Position) -> m.Game:
    """A mod's base game; `chain` holds the mods being read, the last one naming this base at base_pos."""
    if path.suffix in (".yaml", ".yml"):
        if path.resolve() in chain or len(chain) >= MAX_BASE_DEPTH:
            names = " -> ".join(display_path(p) for p in chain + (path,))
            problem = ("a mod cannot be its own base, not even through other mods" if path.resolve() in chain
                       else f"mods based on mods more than {MAX_BASE_DEPTH} deep")
            raise DiagnosticError([Diagnostic("TG055", f"{problem}: {names}", base_pos,
                                              "base a mod on a full game (a game XML or a full-game YAML)")])
        return load_spec(path, chain).game  # not kept: a YAML base has inputs of its own (its base, macros)
    shown = display_path(path)
    return basecache.load(path, shown, lambda: read_input(path), lambda data: import_xml_bytes(data, shown)[0])


def load_base_game(path: Path) -> m.Game:
    """A base game named on the command line (`import --base`), not by a spec's `base:`."""
    return _load_base(path, (), Position(display_path(path), 0, 0))


def compile_cold(spec_path: str | os.PathLike, text: str | None = None) -> CompiledGame:
    """The whole build from nothing kept: what a new process does, and what every warm build must equal
    (`generator.builder.compiler.compile_spec` chooses)."""
    loaded = load_spec(spec_path, text=text)
    if loaded.rules:
        add_rules_to_notes(loaded)
    return compile_game(loaded)


def add_rules_to_notes(loaded: LoadedSpec) -> None:
    """Every rule with its text and enforcement goes first in the game notes players read."""
    game = loaded.game
    html = rules_notes_html(game.info.name or loaded.path.stem, game.info.version,
                            loaded.base_path.name if loaded.base_path else None, loaded.rules)
    notes = game.find_property("notes")
    if notes is None:
        notes = m.Property("notes")
        game.properties = (game.properties if game.properties is not None else []) + [notes]
    previous = notes.text if notes.text is not None else notes.value
    notes.text, notes.value = html + ("\n<hr/>\n" + previous if previous else ""), None


def compile_game(loaded: LoadedSpec, owner: object = None, unchanged: frozenset[str] = frozenset()) -> CompiledGame:
    """`owner`, `unchanged`: a warm build's dependency map (generator.builder.incremental)."""
    game, source = loaded.game, loaded.source
    with collector_paused():
        xml, positions = render_game_with_origins(game, owner, unchanged)
    from generator.render.sections import last_render

    rendered = last_render() if owner is not None and not game.extras else None  # extras change the tree
    try:
        tree = parse_xml_bytes(xml, f"{source} (rendered XML)")
    except DiagnosticError as err:
        # The renderer escapes everything, so this means a value holds characters XML cannot carry.
        raise DiagnosticError([Diagnostic("TG042", f"the rendered XML is not well-formed: {d.message}",
                                          game.pos or Position(source), "remove control characters from names and "
                                          "values") for d in err.diagnostics]) from None
    if game.extras:
        xml, tree, positions = _with_extras(tree, game.extras, source, positions)
    return CompiledGame(loaded, xml, tree, positions, rendered)


def _with_extras(tree: etree._ElementTree, extras: list[m.Extra], source: str, positions: dict[int, Position]):
    """The rendered game with the spec's verbatim extras put back: its bytes, its tree as read
    from them (lines as written) and the positions moved to the lines the elements now have."""
    added = apply_extras(tree, extras, f"{source} (extra:)")
    xml = etree.tostring(tree, xml_declaration=True, encoding="UTF-8", doctype=tree.docinfo.doctype or None)
    if not xml.endswith(b"\n"):
        xml += b"\n"
    reread = parse_xml_bytes(xml, f"{source} (rendered XML)")
    # the same nodes in the same order: each rendered element keeps its position on its new line
    moved = {new.sourceline: positions[old.sourceline] for old, new in zip(tree.getroot().iter(), reread.getroot().iter())
             if old not in added and old.sourceline in positions}
    return xml, reread, moved
