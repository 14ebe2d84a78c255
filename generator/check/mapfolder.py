"""Check a game against a map folder as each TripleA desktop client reads it: the
geometry files, map.yml, colours and flags of every player, an image for every
(player, unit type) that can occur, an icon for every resource (current) and a large
one for every resource players buy, and the texts of notifications, political and
user actions. What each engine reads and what happens without it is
generator/catalog/client.yaml; this module only decides what a game needs.

Which (player, unit type) pairs can occur — the rule, documented in README:
  - the player starts with the unit (unitPlacement, heldUnits);
  - the player can buy it: the results of the rules of its production frontier,
    of a frontier a trigger gives it (frontier), or of rules a trigger adds to a
    frontier it uses (productionRule);
  - a trigger gives it to the trigger's players (placement, purchase);
  - a unit the player can own creates it (createsUnitsList) or changes into it
    when hit (whenHitPointsDamagedChangesInto / whenHitPointsRepairedChangesInto);
  - a player captures it: whenCapturedChangesInto gives the new unit to the
    capturing player (or any), canBeCapturedOnEnteringBy names the players who
    can capture the type, canBeGivenByTerritoryTo the players it can be given
    to, and infrastructure (isInfrastructure or isFactory) owned by one player
    can be taken by any player of another alliance that has a move step.
Technology image variants (_lr, _jp, ...) and damaged/disabled images are not
required: both engines draw the plain image's name for them only when the file
is there or fall back the same way."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from generator.catalog.client import ClientRule, client_entry
from generator.core.diagnostics import Collector, Diagnostic, DiagnosticError, Position, closest, display_path
from generator.read.mapfiles import (FolderListings, engine_file_exists, map_file_exists,
                                     read_map_file as read_file_below, refuse_link)
from generator.read.maplisting import listing_games
from generator.read.propfile import property_line, read_properties
from generator.core.enginename import EngineName

_HEX_COLOUR = re.compile(r"[0-9A-Fa-f]{6}\Z")
# The icon sizes the current client draws (ResourceImageFactory IMAGE_SIZE, LARGE_IMAGE_SIZE).
_ICON_SIZES = {"resource_icon": "20x20", "resource_icon_large": "48x48"}


# ---------------------------------------------------------------- the folder


class MapFolder:
    """What a client finds for a game: files about to be written (pending, by path relative to
    the content root) over the content roots given, first match wins; map.yml listings beside."""

    def __init__(self, roots: list[Path], pending: dict[str, bytes] | None = None,
                 engine_assets: Path | None = None, pending_listing: bytes | None = None):
        self.roots = [Path(r) for r in roots]
        self.pending = dict(pending or {})
        self.engine_assets = engine_assets
        self.pending_listing = pending_listing  # a map.yml about to be written beside the content root
        self.listings = _listing_candidates(self.roots[:1])
        self._files = FolderListings()  # the checks ask about hundreds of files in a few folders

    @classmethod
    def at(cls, map_dir, engine_assets: Path | None = None) -> "MapFolder":
        """The map folder given on the command line: its content root is the folder itself or
        its map/ subfolder, whichever holds polygons.txt (else map.properties)."""
        content = content_root(Path(map_dir))
        if content != Path(map_dir):
            refuse_link(content)  # map/ below the folder named: read from as a root, so checked here
        return cls([content], engine_assets=engine_assets)

    def exists(self, relpath: str, in_engine_assets: bool = False) -> bool:
        if in_engine_assets:  # the engine's own install, not a downloaded folder
            return self.engine_assets is not None and engine_file_exists(self.engine_assets / relpath)
        return relpath in self.pending or any(self._files.exists(root, relpath) for root in self.roots)

    def read_bytes(self, relpath: str) -> bytes | None:
        """Every read of the folder goes through the map folder reader: no link followed, regular
        files only, bounded (a refusal is a located error)."""
        if relpath in self.pending:
            return self.pending[relpath]
        for root in self.roots:
            data = read_file_below(root, relpath)
            if data is not None:
                return data
        return None

    def read_text(self, relpath: str) -> str | None:
        blob = self.read_bytes(relpath)
        return None if blob is None else blob.decode("utf-8", errors="replace")

    def property_keys(self, relpath: str) -> set[str] | None:
        """Keys of a .properties file; None when the file is missing. Pending text and every root
        count (a build adds keys to the base map's file, never removes them)."""
        blobs = [self.pending[relpath]] if relpath in self.pending else []
        blobs += [blob for blob in (read_file_below(root, relpath) for root in self.roots) if blob is not None]
        if not blobs:
            return None
        return set().union(*(read_properties(blob) for blob in blobs))

    def properties(self, relpath: str) -> dict[str, str]:
        """Key -> value of the first file found (the file the client reads)."""
        blob = self.read_bytes(relpath)
        return read_properties(blob) if blob is not None else {}

    def shown(self, relpath: str) -> str:
        """A path of the folder as hints show it (where a file should be added)."""
        return display_path(self.roots[0] / relpath) if self.roots else relpath

    def find_first(self, rule: ClientRule, **names) -> bool:
        return any(self.exists(path, in_assets) or (in_assets and self.engine_assets is None and path in rule.bundled)
                   for in_assets, path in rule.paths(**names))


def content_root(map_dir: Path) -> Path:
    for folder in (map_dir, map_dir / "map"):
        if (folder / "polygons.txt").is_file():
            return folder
    for folder in (map_dir, map_dir / "map"):
        if (folder / "map.properties").is_file():
            return folder
    return map_dir / "map" if (map_dir / "map").is_dir() else map_dir


def _listing_candidates(roots: list[Path]) -> list[tuple[Path, str]]:
    # GameParser looks for map.yml from the game XML (<root>/games/x.xml) upwards: (folder read
    # from, path below it), so that no link below the folder is followed.
    found = []
    for root in roots:
        for base, relpath in ((root, "games/map.yml"), (root, "map.yml"), (root.parent, "map.yml")):
            if (base, relpath) not in found:
                found.append((base, relpath))
    return found


def read_map_file(map_dir, name: str) -> str | None:
    """A text file of the map folder given on the command line (the folder or its map/ subfolder)."""
    return MapFolder.at(map_dir).read_text(name)


def engine_assets_folder(engine: str) -> Path | None:
    """1.9 searches its own assets folder (<install>/assets, beside bin/triplea.jar) after the map
    folder; the current engine's assets are not installed here, so only the map folder counts."""
    if engine != EngineName.V1_9:
        return None
    from generator.engine.install import engine_jar

    folder = engine_jar().resolve().parent.parent / "assets"
    return folder if folder.is_dir() else None


def point_file_names(text: str) -> set[str]:
    """Territory names of polygons.txt, centers.txt or place.txt: the text before '<' or '('."""
    names = set()
    for line in text.splitlines():
        cut = min((i for i in (line.find("<"), line.find("(")) if i >= 0), default=-1)
        if cut > 0 and line[:cut].strip():
            names.add(line[:cut].strip())
    return names


# ---------------------------------------------------------------- what the game needs


@dataclass
class GameNeeds:
    """What a game makes a client look up, each with the element to report at."""
    players: dict[str, etree._Element] = field(default_factory=dict)
    territories: dict[str, etree._Element] = field(default_factory=dict)
    capitals: dict[str, etree._Element] = field(default_factory=dict)  # player -> capital option
    convoy_owners: dict[str, etree._Element] = field(default_factory=dict)
    kamikaze_owners: dict[str, etree._Element] = field(default_factory=dict)
    # (player, unit) -> (the element that makes the pair possible, how the player gets the unit)
    units: dict[tuple[str, str], tuple[etree._Element, str]] = field(default_factory=dict)
    message_keys: list[tuple[str, str, etree._Element]] = field(default_factory=list)
    political_texts: dict[str, tuple[etree._Element, int, bool]] = field(default_factory=dict)
    # resource -> its <resource> element (icons: current's status bar, Economy tab, purchase costs)
    resources: dict[str, etree._Element] = field(default_factory=dict)
    # resource -> the productionRule <result> that yields it (large icons: the purchase panel)
    bought_resources: dict[str, etree._Element] = field(default_factory=dict)
    user_action_texts: dict[str, tuple[etree._Element, int, bool]] = field(default_factory=dict)


def _options(attachment) -> list[tuple[str, str, str, etree._Element]]:
    return [(o.get("name", ""), o.get("value", ""), o.get("count", ""), o) for o in attachment.iterfind("option")]


def _attachments(root):
    for attachment_list in root.iterfind("attachmentList"):
        for attachment in attachment_list:
            if attachment.tag in ("attachment", "attatchment"):
                yield attachment


def _class_name(attachment) -> str:
    return attachment.get("javaClass", "").rsplit(".", 1)[-1]


def _fields(value: str) -> list[str]:
    return value.split(":")


def game_needs(root) -> GameNeeds:
    needs = GameNeeds()
    for player in root.iterfind("playerList/player"):
        needs.players.setdefault(player.get("name", ""), player)
    water = set()
    for territory in root.iterfind("map/territory"):
        name = territory.get("name", "")
        needs.territories.setdefault(name, territory)
        if territory.get("water", "false").lower() == "true":
            water.add(name)
    owners = {o.get("territory"): o.get("owner") for o in root.iterfind("initialize/ownerInitialize/territoryOwner")}
    units = needs.units
    frontier_rules: dict[str, list[str]] = {}
    for frontier in root.iterfind("production/productionFrontier"):
        frontier_rules.setdefault(frontier.get("name", ""), []).extend(
            r.get("name", "") for r in frontier.iterfind("frontierRules"))
    rule_units: dict[str, list[str]] = {}
    rule_elements: dict[str, etree._Element] = {}
    for rule in root.iterfind("production/productionRule"):
        name = rule.get("name", "")
        rule_elements[name] = rule
        rule_units[name] = [r.get("resourceOrUnit", "") for r in rule.iterfind("result")]
    unit_names = {u.get("name", "") for u in root.iterfind("unitList/unit")}
    _add_resources(root, needs)

    def add(player, unit, element, how):
        if player in needs.players and unit in unit_names:
            units.setdefault((player, unit), (element, how))

    def add_frontier(player, frontier, element=None):
        # reported at the trigger that gives the frontier, else at the rule that buys the unit
        for rule in frontier_rules.get(frontier, []):
            for unit in rule_units.get(rule, []):
                if element is None:
                    add(player, unit, rule_elements.get(rule), "buys it")
                else:
                    add(player, unit, element, "buys it once a trigger gives it the frontier")

    for placement in root.iterfind("initialize/unitInitialize/unitPlacement"):
        add(placement.get("owner", ""), placement.get("unitType", ""), placement, "starts with it")
    for held in root.iterfind("initialize/unitInitialize/heldUnits"):
        add(held.get("player", ""), held.get("unitType", ""), held, "starts with it")
    player_frontiers: dict[str, set[str]] = {}
    for production in root.iterfind("production/playerProduction"):
        player, frontier = production.get("player", ""), production.get("frontier", "")
        player_frontiers.setdefault(player, set()).add(frontier)
        add_frontier(player, frontier)

    # unit attachments, read once; applied after every owner is known
    # unit (or player) -> [(unit or player it names, the option element)]
    creates: dict[str, list[tuple[str, etree._Element]]] = {}
    changes: dict[str, list[tuple[str, etree._Element]]] = {}
    captured_by: dict[str, list[tuple[str, etree._Element]]] = {}
    given_to: dict[str, list[tuple[str, etree._Element]]] = {}
    infrastructure: set[str] = set()
    captured_into: list = []
    triggers = []
    for attachment in _attachments(root):
        cls, target = _class_name(attachment), attachment.get("attachTo", "")
        options = _options(attachment)
        if cls == "UnitAttachment":
            for name, value, _count, element in options:
                low = value.lower()
                if name == "createsUnitsList":
                    unit = _fields(value)[-1]
                    creates.setdefault(target, []).append((unit, element))
                elif name in ("whenHitPointsDamagedChangesInto", "whenHitPointsRepairedChangesInto"):
                    changes.setdefault(target, []).append((_fields(value)[-1], element))
                elif name == "canBeCapturedOnEnteringBy":
                    captured_by.setdefault(target, []).extend((p, element) for p in _fields(value))
                elif name == "canBeGivenByTerritoryTo" and low not in ("true", "false"):
                    given_to.setdefault(target, []).extend((p, element) for p in _fields(value))
                elif name in ("isInfrastructure", "isFactory") and low == "true":
                    infrastructure.add(target)
                elif name == "whenCapturedChangesInto":
                    parts = _fields(value)
                    if len(parts) >= 5:
                        captured_into.append((target, parts[0], parts[1], parts[3::2], element))
        elif cls == "TerritoryAttachment":
            # convoy markers show the sea zone's owner, kamikaze markers its original owner
            owner = owners.get(target)
            original = next((v for n, v, _c, _e in options if n == "originalOwner"), owner)
            for name, value, _count, element in options:
                if name == "capital":
                    needs.capitals.setdefault(value, element)
                elif target not in water or value.lower() in ("false", "0"):
                    continue
                elif owner and (name == "convoyRoute" or (name == "production" and value.isdigit())):
                    needs.convoy_owners.setdefault(owner, element)
                elif original and name == "kamikazeZone":
                    needs.kamikaze_owners.setdefault(original, element)
        elif cls == "TriggerAttachment":
            triggers.append((attachment, target, options))
            for name, value, _count, element in options:
                if name in ("notification", "victory"):
                    needs.message_keys.append((name, value, element))
        elif cls in ("PoliticalActionAttachment", "UserActionAttachment"):
            texts = needs.political_texts if cls == "PoliticalActionAttachment" else needs.user_action_texts
            text = next((v for n, v, _c, _e in options if n == "text"), "")
            asks = any(n == "actionAccept" and v for n, v, _c, _e in options)
            if text:
                element, uses, asked = texts.get(text, (attachment, 0, False))
                texts[text] = (element, uses + 1, asked or asks)

    for _attachment, target, options in triggers:
        players = [p for n, v, _c, _e in options if n == "players" for p in _fields(v)] or [target]
        for name, value, _count, element in options:
            parts = _fields(value)
            if name == "placement":
                for unit in parts[1:] if parts and parts[0] not in unit_names else parts:
                    for player in players:
                        add(player, unit, element, "a trigger places it")
            elif name == "purchase":
                for unit in parts:
                    for player in players:
                        add(player, unit, element, "a trigger gives it")
            elif name == "frontier":
                for player in players:
                    player_frontiers.setdefault(player, set()).add(value)
                    add_frontier(player, value, element)
            elif name == "productionRule" and len(parts) == 2 and not parts[1].startswith("-"):
                frontier, rule = parts
                for player, frontiers in list(player_frontiers.items()):
                    if frontier in frontiers:
                        for unit in rule_units.get(rule, []):
                            add(player, unit, element, "buys it once a trigger adds the rule")

    _add_derived_units(root, needs, creates, changes, captured_by, given_to, infrastructure, captured_into, add)
    return needs


# The current engine leaves VPs out of its status bar and Economy tab (Constants.VPS).
VICTORY_POINTS = "VPs"


def _add_resources(root, needs: GameNeeds) -> None:
    needs.resources, needs.bought_resources = resource_needs(root)


def resource_needs(root) -> tuple[dict[str, etree._Element], dict[str, etree._Element]]:
    """The resources whose small icon the current client draws (every one but VPs, and VPs when a
    production rule costs it), and those a production rule yields (their large icon), each with
    the element to report at."""
    declared: dict[str, etree._Element] = {}
    shown: dict[str, etree._Element] = {}
    bought: dict[str, etree._Element] = {}
    for resource in root.iterfind("resourceList/resource"):
        declared.setdefault(resource.get("name", ""), resource)
    costed = {cost.get("resource", "") for cost in root.iterfind("production/productionRule/cost")}
    for name, element in declared.items():
        if name != VICTORY_POINTS or name in costed:
            shown[name] = element
    for result in root.iterfind("production/productionRule/result"):
        name = result.get("resourceOrUnit", "")
        if name in declared:
            bought.setdefault(name, result)
    return shown, bought


def _add_derived_units(root, needs, creates, changes, captured_by, given_to, infrastructure, captured_into, add):
    units = needs.units
    alliance_of: dict[str, set[str]] = {}
    for alliance in root.iterfind("playerList/alliance"):
        alliance_of.setdefault(alliance.get("player", ""), set()).add(alliance.get("alliance", ""))
    move_delegates = {d.get("name") for d in root.iterfind("gamePlay/delegate")
                      if d.get("javaClass", "").endswith("MoveDelegate")}
    # in step order: which pair is found first (and so where it is reported) must not vary
    movers = list(dict.fromkeys(step.get("player") for step in root.iterfind("gamePlay/sequence/step")
                                if step.get("delegate") in move_delegates and step.get("player")))
    changed = True
    while changed:  # a created unit may create or change into another; a few rounds settle it
        before = len(units)
        for (player, unit), (why, _how) in list(units.items()):
            for new_unit, element in creates.get(unit, []):
                add(player, new_unit, element, f"its {unit} creates it")
            for new_unit, element in changes.get(unit, []):
                add(player, new_unit, element, f"its {unit} changes into it")
            for capturer, element in captured_by.get(unit, []):
                if capturer != player:
                    add(capturer, unit, element, f"captures it from {player}")
            for receiver, element in given_to.get(unit, []):
                add(receiver, unit, element, "is given it")
            if unit in infrastructure:
                for capturer in movers:
                    if capturer != player and not (alliance_of.get(capturer, set()) & alliance_of.get(player, set())):
                        add(capturer, unit, why, f"captures it from {player}")
        for unit, from_player, to_player, new_units, element in captured_into:
            owners = {p for p, u in units if u == unit}
            if from_player.lower() != "any":
                owners &= {from_player}
            if not owners:
                continue
            receivers = movers if to_player.lower() == "any" else [to_player]
            for receiver in receivers:
                for new_unit in new_units:
                    add(receiver, new_unit, element, f"captures a {unit} that changes into it")
        changed = len(units) != before


# ---------------------------------------------------------------- the checks


class MapFolderChecker:
    def __init__(self, root, folder: MapFolder, engine: str, position_of, game_file: str | None = None,
                 needs: GameNeeds | None = None):
        self.root = root
        self.folder = folder
        self.engine = engine
        self.position_of = position_of
        self.game_file = game_file
        self.out = Collector()
        self.needs = needs if needs is not None else game_needs(root)

    def report(self, entry_id: str, code: str, message: str, element, hint: str, **names) -> None:
        rule = client_entry(entry_id).rule(self.engine)
        if rule.severity == "none":
            return
        text = f"{message}; {self.engine}: {rule.describe(**names)}"
        position = self.position_of(element) if element is not None else Position("")
        (self.out.error if rule.severity == "error" else self.out.warning)(code, text, position, hint)

    def run(self) -> list[Diagnostic]:
        self.check_geometry()
        self.check_listing()
        self.check_players()
        self.check_units()
        self.check_resources()
        self.check_texts()
        return self.out.diagnostics

    # -------------------------------------------------------- geometry and map.yml

    def check_geometry(self):
        game_root = self.root
        for entry_id, name in (("polygons_file", "polygons.txt"), ("centers_file", "centers.txt"),
                               ("place_file", "place.txt"), ("map_properties_file", "map.properties")):
            if not self.folder.exists(name):
                self.report(entry_id, "TG400", f"the map folder has no {name}", game_root,
                            f"add {self.folder.shown(name)}")
        for name in ("polygons.txt", "centers.txt", "place.txt"):
            text = self.folder.read_text(name)
            if text is None:
                continue
            listed = point_file_names(text)
            for territory, element in self.needs.territories.items():
                if territory not in listed:
                    self.report("territory_geometry", "TG401", f"territory '{territory}' is not in {name}", element,
                                f"add a line for '{territory}' to {self.folder.shown(name)}",
                                territory=territory, kind=name[:-len(".txt")])

    def check_listing(self):
        if self.game_file is None or client_entry("map_yml_game").rule(self.engine).severity == "none":
            return
        pending = self.folder.pending_listing  # what a build writes is checked, not what it replaces
        data: bytes | None  # None: the listing vanished after it was found (read as an empty one)
        if pending is not None:
            shown, data = "the map.yml being written", pending
        else:
            listing = next(((base, relpath) for base, relpath in self.folder.listings
                            if map_file_exists(base, relpath)), None)
            if listing is None:
                self.report("map_yml_file", "TG402", "the map folder has no map.yml", self.root,
                            f"add map.yml beside the map folder with 'games: [{{game_name: ..., file_name: "
                            f"{self.game_file}}}]'")
                return
            shown, data = display_path(listing[0] / listing[1]), read_file_below(*listing)
        try:
            files = {file for _, file in listing_games(data, shown)[1]}
        except DiagnosticError as err:
            if any(d.code != "TG027" for d in err.diagnostics):
                raise  # a link, special or oversized file, an alias: refused, not read
            files = set()  # a listing that does not parse is as good as none to the engine
        if self.game_file not in files:
            self.report("map_yml_game", "TG402", f"map.yml ({shown}) does not list '{self.game_file}'", self.root,
                        f"add '- {{game_name: <the game's name>, file_name: {self.game_file}}}' to the games: "
                        f"list of {shown}")

    # -------------------------------------------------------- players

    def check_players(self):
        needs, folder = self.needs, self.folder
        colours = folder.properties("map.properties")
        show_capitals = colours.get("map.showCapitolMarkers", "true").lower() != "false"
        nation_convoy = colours.get("map.useNation_convoyFlags", "false").lower() == "true"
        for player, element in needs.players.items():
            value = colours.get(f"color.{player}")
            if value is None:
                self.report("player_colour", "TG410", f"player '{player}' has no colour in map.properties",
                            element, f"add 'color.{player}=RRGGBB' (6 hex digits) to {folder.shown('map.properties')}",
                            player=player)
            elif not _HEX_COLOUR.match(value.strip()):
                self.out.error("TG410", f"player '{player}' has colour '{value}' in map.properties, not 6 hex "
                               "digits; 1.9: IllegalStateException \"Player colors must be a 6 digit hex number, "
                               "eg FF0011\"", self.position_of(element),
                               f"write 'color.{player}=RRGGBB' in {folder.shown('map.properties')}, "
                               f"e.g. color.{player}=FF0011")
            for entry_id in ("flag_small", "flag"):
                self.check_flag(entry_id, player, element)
        if show_capitals:
            for player, element in needs.capitals.items():
                if player in needs.players:
                    self.check_flag("flag_large", player, element)
        for player, element in needs.convoy_owners.items():
            if player in needs.players:
                self.check_flag("flag_convoy" if nation_convoy else "flag", player, element)
        for player, element in needs.kamikaze_owners.items():
            if player in needs.players:
                self.check_flag("flag_fade", player, element)

    def check_flag(self, entry_id: str, player: str, element):
        rule = client_entry(entry_id).rule(self.engine)
        if self.folder.find_first(rule, player=player):
            return
        wanted = client_entry(entry_id).file(player=player)
        self.report(entry_id, "TG411", f"player '{player}' has no {wanted}", element,
                    f"add {self.folder.shown(wanted)}", player=player)

    # -------------------------------------------------------- units

    def check_units(self):
        entry = client_entry("unit_image")
        rule = entry.rule(self.engine)
        for (player, unit), (element, how) in sorted(self.needs.units.items(), key=lambda item: item[0]):
            if self.folder.find_first(rule, player=player, unit=unit):
                continue
            wanted = entry.file(player=player, unit=unit)
            self.report("unit_image", "TG420", f"player '{player}' can own unit type '{unit}' ({how}) but there is "
                        f"no {wanted}", element, f"add {self.folder.shown(wanted)}", player=player, unit=unit)

    # -------------------------------------------------------- resources

    def check_resources(self):
        for entry_id, code, wanted_by in (("resource_icon", "TG421", self.needs.resources),
                                          ("resource_icon_large", "TG422", self.needs.bought_resources)):
            entry = client_entry(entry_id)
            rule = entry.rule(self.engine)
            if rule.severity == "none":
                continue
            for resource, element in wanted_by.items():
                if self.folder.find_first(rule, resource=resource):
                    continue
                wanted = entry.file(resource=resource)
                self.report(entry_id, code, f"resource '{resource}' has no {wanted}", element,
                            f"add {self.folder.shown(wanted)} ({_ICON_SIZES[entry_id]} pixels; `build` draws one for "
                            "a resource the game adds)", resource=resource)

    # -------------------------------------------------------- texts

    def check_texts(self):
        self.check_notifications()
        for entry_id, code, file_name, texts in (
                ("political_action_text", "TG430", "politicstext.properties", self.needs.political_texts),
                ("user_action_text", "TG431", "actionstext.properties", self.needs.user_action_texts)):
            if not texts:
                continue
            keys = self.folder.property_keys(file_name) or set()
            suffixes = client_entry(entry_id).key_suffixes
            for text, (element, uses, asks) in sorted(texts.items()):
                wanted = [s for s in suffixes if s != "ACCEPT_QUESTION" or asks]
                missing = [f"{text}.{s}" for s in wanted if f"{text}.{s}" not in keys]
                if not missing:
                    continue
                shared = f" (used by {uses} actions)" if uses > 1 else ""
                self.report(entry_id, code, f"text '{text}'{shared} has no "
                            f"{', '.join(m.rsplit('.', 1)[1] for m in missing)} in {file_name}", element,
                            f"add {', '.join(m + '=...' for m in missing)} to {self.folder.shown(file_name)}", key=text)

    def check_notifications(self):
        if not self.needs.message_keys:
            return
        keys = self.folder.property_keys("notifications.properties") or set()
        for option, key, element in self.needs.message_keys:
            if key in keys:
                continue
            effect = "nothing happens" if option == "victory" else "no message is shown"
            self.out.warning("TG170", f"{option} key '{key}' is not in notifications.properties; {effect}",
                             self.position_of(element), _raw_utf8_hint(key, keys) or
                             closest(key, keys) or f"add '{key}=<the text players see>' to "
                                                   f"{self.folder.shown('notifications.properties')}")


def _raw_utf8_hint(key: str, keys: set[str]) -> str | None:
    """The clients read .properties as ISO-8859-1: a key written as raw UTF-8 is another key to them."""
    as_read = key.encode("utf-8").decode("latin-1")
    if as_read == key or as_read not in keys:
        return None
    return (f"the file has this key as raw UTF-8, which the client reads as ISO-8859-1 (another key); write it "
            f"with \\u escapes: {property_line(key, '...').strip()}")


def check_map_folder(root, folder: MapFolder, *, engine: str, position_of, game_file: str | None = None,
                     needs: GameNeeds | None = None) -> list[Diagnostic]:
    """Every map-folder problem of the game (root: the game XML's root element) for one engine;
    needs: game_needs(root) when the caller has it already."""
    return MapFolderChecker(root, folder, engine, position_of, game_file, needs).run()


def build_map_folder(files: dict[str, bytes], outdir, base_xml: Path | None, engine: str) -> MapFolder | None:
    """The map folder a build produces, as a client will see it: the files being written
    (<map>/map/..., <map>/map.yml) over what the output folder already holds, over a mod's base
    map folder. None when there is no map folder to check (a game XML without any map files)."""
    xml_path = next((path for path in files if path.endswith(".xml") and "/games/" in path), None)
    if xml_path is None:
        return None
    map_folder = xml_path.split("/", 1)[0]
    prefix = f"{map_folder}/map/"
    pending = {path[len(prefix):]: data for path, data in files.items() if path.startswith(prefix)}
    output = Path(outdir) / map_folder / "map"
    # A link there is never read through: the writer refuses it (TG043) before anything is written.
    roots = [] if any(os.path.islink(folder) for folder in (output.parent, output)) else [output]
    if base_xml is not None and base_xml.suffix == ".xml":
        roots.append(base_xml.resolve().parent.parent)
    if "polygons.txt" not in pending and not any(map_file_exists(root, "polygons.txt") for root in roots):
        return None
    return MapFolder(roots, pending, engine_assets_folder(engine), files.get(f"{map_folder}/map.yml"))
