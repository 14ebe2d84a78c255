"""The two games a balance run compares: SPEC built (the "mod") and OTHER (the "base": a spec,
a game XML, or by default the mod's base game, or for a full game the spec built without its
rules). Each becomes a Variant: the game XML's bytes, the text files of its map folder (the
engine reads notification and victory texts there; images are left out, so that a task sent to a
cluster stays small), and what the statistics need from the game (sides, unit costs, colours)."""
from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.read.safexml import parse_xml_bytes, read_input

# The map folder files a headless game reads: texts of notifications, politics, objectives and the
# map's properties (colours). Everything else (images, point files) only the desktop client draws.
MAP_TEXT_SUFFIXES = (".properties",)
MAX_MAP_TEXT_BYTES = 8 * 1024 * 1024


@dataclass
class Variant:
    name: str  # "mod" or "base"
    label: str  # what it was built from, for the report
    file_name: str  # the game file's name: the engine names the game by it
    xml: bytes
    map_files: dict[str, bytes] = field(default_factory=dict)  # relative path -> bytes
    players: list[str] = field(default_factory=list)
    sides: dict[str, str] = field(default_factory=dict)  # player -> alliance (each player, in a game without any)
    unit_costs: dict[str, float] = field(default_factory=dict)  # unit type -> PUs, from production rules
    colours: dict[str, str] = field(default_factory=dict)  # player -> "#rrggbb" (map.properties)

    @property
    def digest(self) -> str:
        """The game's identity in the results cache: the XML and the map texts it plays with."""
        sha = hashlib.sha256(self.xml)
        for path in sorted(self.map_files):
            sha.update(b"\0" + path.encode() + b"\0" + self.map_files[path])
        return sha.hexdigest()

    def side_names(self) -> list[str]:
        return list(dict.fromkeys(self.sides[player] for player in self.players if player in self.sides))


def _error(code: str, message: str, where: str, hint: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, Position(where), hint)], exit_status=2)


def spec_variants(spec: Path, against: str | None) -> tuple[Variant, Variant]:
    """(mod, base) for `balance SPEC [--against OTHER]` and `odds`."""
    from generator.builder.pipeline import compile_game, load_spec

    loaded = load_spec(spec)
    mod = _from_compiled("mod", display_path(spec), compile_game(loaded))
    if against is not None:
        other = Path(against)
        if not other.is_file():
            raise _error("TG601", f"--against names no file: {against}", "--against",
                         "give a spec (.yaml) or a game XML (.xml)")
        base = variant_of_file("base", other)
    elif loaded.base_path is not None:
        base = variant_of_file("base", loaded.base_path)
    elif loaded.rules:
        base = _spec_without_rules("base", spec)
    else:
        raise _error("TG601", "nothing to measure against: the spec is no mod and has no rules",
                     display_path(spec), "give --against OTHER (a spec or a game XML)")
    return mod, base


def variant_of_file(name: str, path: Path) -> Variant:
    """A variant from a spec (built) or a game XML (as it is, with the map folder it sits in)."""
    if path.suffix in (".yaml", ".yml"):
        from generator.builder.compiler import compile_spec

        return _from_compiled(name, display_path(path), compile_spec(path))
    data = read_input(path)
    map_root = _map_root_of(path)
    return _variant(name, display_path(path), path.name, data, _map_texts(map_root) if map_root else {})


def _spec_without_rules(name: str, spec: Path) -> Variant:
    from generator.builder.pipeline import compile_game, load_spec

    loaded = load_spec(spec, edit_rules=lambda rules: [], check_assets=False)
    return _from_compiled(name, f"{display_path(spec)} without its rules", compile_game(loaded))


def _from_compiled(name: str, label: str, compiled) -> Variant:
    from generator.scenarios.run import write_map_folder

    # safe-write: a private temporary folder of ours, removed when the map texts are read
    with tempfile.TemporaryDirectory(prefix="triplea-gen-balance-") as folder:
        map_root = write_map_folder(compiled, Path(folder) / "map-folder")
        texts = _map_texts(map_root)
    return _variant(name, label, compiled.game_file, compiled.xml_bytes, texts)


def _map_root_of(game: Path) -> Path | None:
    """The map folder a game XML sits in (MAP/map/games/G.xml or MAP/games/G.xml), or None."""
    games = game.resolve().parent
    if games.name != "games":
        return None
    return games.parent.parent if games.parent.name == "map" else games.parent


def _map_texts(root: Path) -> dict[str, bytes]:
    texts: dict[str, bytes] = {}
    total = 0
    for path in sorted(root.rglob("*")):
        if path.suffix in MAP_TEXT_SUFFIXES and path.is_file() and not path.is_symlink():
            data = read_input(path)
            total += len(data)
            if total > MAX_MAP_TEXT_BYTES:
                raise _error("TG601", f"the map folder's text files exceed {MAX_MAP_TEXT_BYTES >> 20} MiB",
                             display_path(root), "a map folder's .properties files are a few hundred KiB")
            texts[path.relative_to(root).as_posix()] = data
    return texts


def _variant(name: str, label: str, file_name: str, xml: bytes, map_files: dict[str, bytes]) -> Variant:
    root = parse_xml_bytes(xml, label).getroot()
    players = [p.get("name") for p in root.iterfind("playerList/player") if p.get("name")]
    # A player's first alliance is its side. An optional player (Global 1940's neutrals, the Dutch
    # and Mongolians, each an alliance of its own) or one in no alliance is no side: it neither wins
    # nor counts in the production measure, unless that would leave fewer than two sides.
    optional = {p.get("name") for p in root.iterfind("playerList/player") if p.get("optional") == "true"}
    alliances: dict[str, str] = {}
    for alliance in root.iterfind("playerList/alliance"):
        player, side = alliance.get("player"), alliance.get("alliance")
        if player in players and player not in alliances and side:
            alliances[player] = side
    sides = {player: side for player, side in alliances.items() if player not in optional}
    if len(set(sides.values())) < 2:
        sides = {player: alliances.get(player, player) for player in players}
    return Variant(name=name, label=label, file_name=file_name, xml=xml, map_files=map_files, players=players,
                   sides=sides, unit_costs=unit_costs(root), colours=_colours(map_files, players))


def unit_costs(root) -> dict[str, float]:
    """Each unit type's price in PUs: the cheapest production rule that buys it (per unit)."""
    costs: dict[str, float] = {}
    for rule in root.iterfind("production/productionRule"):
        pus = sum(int(c.get("quantity") or 0) for c in rule.iterfind("cost") if c.get("resource") == "PUs")
        for result in rule.iterfind("result"):
            unit, quantity = result.get("resourceOrUnit"), int(result.get("quantity") or 1)
            if unit and quantity > 0 and pus > 0:
                costs[unit] = min(costs.get(unit, float("inf")), pus / quantity)
    return costs


def _colours(map_files: dict[str, bytes], players: list[str]) -> dict[str, str]:
    colours: dict[str, str] = {}
    for path, data in map_files.items():
        if path.endswith("map.properties"):
            for line in data.decode("utf-8", "replace").splitlines():
                key, _, value = line.partition("=")
                player = key.strip()[len("color."):] if key.strip().startswith("color.") else None
                value = value.strip().lstrip("#")
                if player in players and len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value):
                    colours[player] = "#" + value.lower()
    return colours
