"""Semantic checks of a TripleA game XML for one engine generation ("1.9" or
"current"): names and references, attachment classes and options, engine
features, and the game-play facts that make a game misbehave.

Errors are what makes the engine refuse the game (or crash while loading it);
warnings are what loads but misbehaves. Every check has a stable code, declared
with its severity in generator/core/codes.py (README.md's tables are made from it).

The work is one pass over the document in the engine's own order: index every
declared name once, then walk the attachments in document order (attachment
references may only point backwards; generator/check/attachments.py), then the
initial state and properties."""
from __future__ import annotations

import os
import re
from pathlib import Path

from lxml import etree

from generator.catalog import load_catalog, normalise_engine
from generator.catalog.grammar import NAME_KINDS, is_bool, java_int
from generator.core.diagnostics import Collector, Diagnostic, LazyHint, Position, closest, display_path
from generator.check.schema import check_schema
from generator.check.mapfolder import MapFolder, check_map_folder, engine_assets_folder, read_map_file
from generator.check.attachments import Attachment, AttachmentChecks
from generator.check.structure import StructureChecks
from generator.check.victory import VictoryChecks
from generator.core.enginename import EngineName

_CONDITION_NAME_IN_TEXT = re.compile(r"[A-Za-z0-9_]*(?:objective|condition|trigger)Attachment[A-Za-z0-9_]*")
_VERSION_TEXT = re.compile(r"[0-9]+(?:\.[0-9]+)*\Z")
_NUMBERS = re.compile(r"[0-9]+")
# What check_initialize reads of the checker besides <initialize> (a warm process keys its findings
# on them: generator.check.warmchecks.SectionCheckMemo; tests/check/test_warmchecks.py holds this to the code).
INITIALIZE_READS = ("names", "unit_hit_points")


def validate_tree(tree: etree._ElementTree, *, engine: str = "current", source: str,
                  position_of=None, map_dir=None, game_file: str | None = None,
                  map_folder: MapFolder | None = None, attachments_memo=None,
                  structure_memo=None, map_index_memo=None, initialize_memo=None,
                  schema_memo=None) -> list[Diagnostic]:
    """Every problem of the game in `tree` for `engine`, sorted by position. With a map folder
    (map_dir, or map_folder as a build assembles it) also what the desktop client needs from it;
    game_file is the XML's file name there, which map.yml must list. `attachments_memo`,
    `structure_memo`, `map_index_memo`, `initialize_memo` (a SectionCheckMemo of INITIALIZE_READS): a
    warm process's generator.check.warmchecks memos for this spec; `schema_memo`: its
    generator.check.warmschema.SchemaMemo."""
    engine = normalise_engine(engine)
    if position_of is None:
        def position_of(element):
            return Position(source, element.sourceline or 0, 1)
    if schema_memo is not None:
        found = schema_memo.check(tree, source=source, position_of=position_of)
    else:
        found = check_schema(tree, source=source, position_of=position_of)
    checker = _GameChecker(tree.getroot(), engine, position_of, map_dir)
    checker.attachments_memo = attachments_memo
    checker.structure_memo = structure_memo
    checker.map_index_memo = map_index_memo
    checker.initialize_memo = initialize_memo
    checker.run()
    if map_folder is None and map_dir is not None:
        map_folder = MapFolder.at(map_dir, engine_assets_folder(engine))
    if map_folder is not None:
        checker.out.diagnostics.extend(check_map_folder(tree.getroot(), map_folder, engine=engine,
                                                        position_of=position_of, game_file=game_file))
    # copies of a foreach template can repeat a report word for word
    unique = dict.fromkeys(found + checker.out.diagnostics)
    return sorted(unique, key=Diagnostic.sort_key)


def validate_file(path: str | os.PathLike, *, engine: str = "current", map_dir=None) -> list[Diagnostic]:
    from generator.read.safexml import parse_xml_file

    tree = parse_xml_file(path)
    return validate_tree(tree, engine=engine, source=display_path(path), map_dir=map_dir,
                         game_file=Path(path).name)


class _GameChecker(AttachmentChecks, StructureChecks, VictoryChecks):
    def __init__(self, root, engine: EngineName, position_of, map_dir):
        self.root = root
        self.engine = engine
        self.position_of = position_of
        self.map_dir = map_dir
        self.catalog = load_catalog()
        self.out = Collector()
        c = self.catalog
        self.names: dict[str, set[str]] = {kind: set() for kind in (
            "territory", "player", "unit", "resource", "relType", "effect", "tech", "frontier",
            "rule", "repairFrontier", "repairRule", "delegate", "step")}
        self.names["player"].add(c.null_player)
        self.names["relType"].update(c.builtin_relationship_types)
        self.water: set[str] = set()
        self.income_players: dict[str, etree._Element] = {}
        self.alliances: set[str] = set()
        self.variables: dict[str, list[str]] = {}  # "$X$" -> values
        # attachment bookkeeping
        self.defined: dict[str, list[tuple[str, str]]] = {}  # name -> [(class, type)] so far
        self.first_element: dict[str, etree._Element] = {}  # attachment name -> its first element
        self.current: Attachment | None = None  # the attachment whose options are being checked
        self.current_class: str | None = None
        self.attached: dict[tuple[str, str, str], etree._Element] = {}  # (type, attachTo, name)
        self.unit_hit_points: dict[str, int] = {}
        self.capitals: set[str] = set()
        self.conditions: dict[str, etree._Element] = {}  # RulesAttachment name -> element
        self.mentioned: set[str] = set()
        self.game_property_uses: list[tuple[str, etree._Element]] = []
        self.victory_options: list[tuple[etree._Element, bool]] = []  # (victory option, trigger has when)
        self.option_cache: dict[tuple[str, str], tuple] = {}
        self.bounds: dict[str, int] | None = None  # diceSides, territories: read when first needed
        self.attachments_memo = None  # generator.check.warmchecks.AttachmentsMemo in a warm process
        self.structure_memo = None  # generator.check.warmchecks.StructureMemo in a warm process
        self.map_index_memo = None  # generator.check.warmchecks.MapIndexMemo in a warm process
        self.initialize_memo = None  # generator.check.warmchecks.SectionCheckMemo in a warm process

    # ------------------------------------------------------------ reporting

    # error, warning, report, unknown: CheckerState (check/checkerstate.py)

    def require(self, kind, name, element, context=""):
        if name and name not in self.names[kind]:
            self.unknown(kind, name, element, context)

    # ------------------------------------------------------------ the pass

    def run(self):
        root = self.root
        self.check_header()
        self.check_structure()
        if self.map_index_memo is not None:  # a warm process: kept while the map's section is
            self.map_index_memo.run(self, root.find("map"))
        else:
            self.index_map(root.find("map"))
        self.index_players(root.find("playerList"))
        self.index_simple(root.find("resourceList"), "resource", "resource")
        self.check_resource_display(root.find("resourceList"))
        self.index_simple(root.find("unitList"), "unit", "unit")
        self.index_relationship_types(root.find("relationshipTypes"))
        self.index_simple(root.find("territoryEffectList"), "territoryEffect", "effect")
        self.read_variables(root.find("variableList"))
        self.check_game_play(root.find("gamePlay"))
        if self.attachments_memo is not None:  # a warm process: the map's routes searched once
            self.bounds = self.attachments_memo.bounds(root)
        self.check_production(root.find("production"))
        self.check_technology(root.find("technology"))
        if self.attachments_memo is not None:  # a warm process: skipped when what they read is unchanged
            self.attachments_memo.run(self, self.check_attachments)
        else:
            self.check_attachments()
        if self.engine == EngineName.CURRENT:
            self.check_stacking_caps()
        if self.initialize_memo is not None:  # a warm process: skipped when what it reads is unchanged
            self.initialize_memo.run(self, root.find("initialize"), self.check_initialize)
        else:
            self.check_initialize(root.find("initialize"))
        self.check_properties(root.find("propertyList"))
        self.check_victory_triggers(root.find("propertyList"))
        self.check_completeness()
        self.check_map_folder()

    # ------------------------------------------------------------ header

    def check_header(self):
        root = self.root
        info = root.find("info")
        loader = root.find("loader")
        if self.engine != EngineName.V1_9:
            return
        if info is not None:
            version = info.get("version")
            if not version:
                self.error("TG101", "<info> has no version; 1.9 refuses the file", info,
                           'add version="1.0" (dot-separated numbers)')
            elif not _VERSION_TEXT.match(version):
                self.error("TG101", f"<info> version '{version}' is not a dotted number; 1.9 refuses it",
                           info, 'write e.g. version="1.0"')
        if loader is None:
            self.error("TG102", "no <loader>; 1.9 requires it", info if info is not None else root,
                       f'add <loader javaClass="{self.catalog.loader_class}"/> after <info>')
        elif loader.get("javaClass") != self.catalog.loader_class:
            self.warning("TG102", f"loader class '{loader.get('javaClass')}' is not TripleA's", loader,
                         f"TripleA games use {self.catalog.loader_class}")
        triplea = root.find("triplea")
        if triplea is not None:
            wanted = triplea.get("minimumVersion", "")
            numbers = [int(n) for n in _NUMBERS.findall(wanted)]
            if numbers and tuple((numbers + [0, 0, 0, 0])[:4]) > (1, 9, 0, 0):
                self.error("TG104", f"minimumVersion {wanted} is newer than 1.9; 1.9 refuses the file",
                           triplea, 'write minimumVersion="1.9" or lower')

    # ------------------------------------------------------------ declarations

    def declare(self, kind, name, element, what):
        """Index a declared name; engines keep the later of two declarations."""
        if name in self.names[kind]:
            self.warning("TG110", f"{what} '{name}' is declared twice; the later one replaces the earlier",
                         element, "names should be unique; rename or remove one")
        self.names[kind].add(name)

    def index_map(self, game_map):
        if game_map is None:
            return
        connections = []
        for element in game_map:
            tag = element.tag
            if tag == "territory":
                name = element.get("name", "")
                if name in self.names["territory"]:
                    self.error("TG110", f"territory '{name}' is declared twice", element,
                               "territory names must be unique")
                self.names["territory"].add(name)
                if element.get("water", "false").lower() == "true":
                    self.water.add(name)
            elif tag == "grid":
                self.declare_grid(element)
            elif tag == "connection":
                connections.append(element)
            elif tag == "remove-connection":
                self.warning("TG104", "<remove-connection> does nothing in either engine", element,
                             "remove the <connection> instead")
        territories = self.names["territory"]
        for element in connections:
            t1, t2 = element.get("t1", ""), element.get("t2", "")
            for name in (t1, t2):
                if name and name not in territories:
                    self.unknown("territory", name, element, "a connection")
            if t1 and t1 == t2:
                self.error("TG112", f"territory '{t1}' is connected to itself; the engine refuses this", element,
                           "remove this connection")

    def declare_grid(self, element):
        if self.engine == EngineName.CURRENT:
            self.error("TG104", "<grid> is not supported by the current engine; its territories do not exist",
                       element, "declare each territory with <territory>")
            return
        # 1.9 names grid cells name_x_y; accept both index orders rather than guess.
        name = element.get("name", "")
        width, height = java_int(element.get("x", "")), java_int(element.get("y", ""))
        if not name or width is None or height is None:
            return
        for i in range(max(width, height)):
            for j in range(max(width, height)):
                if (i < width and j < height) or (i < height and j < width):
                    self.names["territory"].add(f"{name}_{i}_{j}")

    def index_players(self, player_list):
        if player_list is None:
            return
        null = self.catalog.null_player
        for element in player_list.iterfind("player"):
            name = element.get("name", "")
            if name == null:
                self.warning("TG111", f"player '{null}' is the engine's built-in null player", element,
                             "choose another name; options use 'Neutral' to mean nobody")
                continue
            self.declare("player", name, element, "player")
        for element in player_list.iterfind("alliance"):
            self.require("player", element.get("player", ""), element, "an alliance")
            self.alliances.add(element.get("alliance", ""))

    def index_simple(self, parent, tag, kind):
        if parent is None:
            return
        for element in parent.iterfind(tag):
            self.declare(kind, element.get("name", ""), element, NAME_KINDS[kind][1])

    def check_resource_display(self, resource_list):
        if resource_list is None:
            return
        for element in resource_list.iterfind("resource"):
            shown_for = element.get("isDisplayedFor")
            if shown_for is None:
                continue
            if self.engine == EngineName.V1_9:
                self.warning("TG104", "1.9 ignores isDisplayedFor", element, "remove it for 1.9")
            elif shown_for and shown_for.upper() != "NONE":
                for player in shown_for.split(":"):
                    self.require("player", player, element, "isDisplayedFor")

    def index_relationship_types(self, parent):
        if parent is None:
            return
        for element in parent.iterfind("relationshipType"):
            name = element.get("name", "")
            if name in self.catalog.builtin_relationship_types:
                self.warning("TG111", f"relationship type '{name}' is built in; do not declare it", element,
                             "remove this declaration or choose another name")
                continue
            self.declare("relType", name, element, "relationship type")

    def read_variables(self, variable_list):
        if variable_list is None:
            return
        if self.engine == EngineName.V1_9:
            self.error("TG104", "1.9 does not know <variableList>; foreach and $variables$ stay literal",
                       variable_list, "expand the templates for 1.9 (triplea-gen does this when building)")
        for variable in variable_list.iterfind("variable"):
            values = []
            for element in variable.iterfind("element"):
                value = element.get("name", "")
                values.extend(self.variables.get(value, [value]))
            self.variables["$" + variable.get("name", "") + "$"] = values

    # ------------------------------------------------------------ game play

    def check_game_play(self, game_play):
        if game_play is None:
            return
        catalog = self.catalog
        delegate_classes = {}
        for element in game_play.iterfind("delegate"):
            name, java_class = element.get("name", ""), element.get("javaClass", "")
            if name in catalog.reserved_delegate_names:
                self.warning("TG111", f"delegate name '{name}' is reserved by the engine", element,
                             "choose another name")
            self.declare("delegate", name, element, "delegate")
            facts = catalog.delegate(java_class, self.engine)
            if facts is None and java_class:
                if self.engine == EngineName.V1_9 and catalog.delegate(java_class, "current") is not None:
                    self.error("TG103", f"1.9 needs the full delegate class name, not '{java_class}'", element,
                               f'write javaClass="{catalog.delegate_package}.{java_class}"')
                else:
                    simple = java_class.rpartition(".")[2]
                    self.error("TG141", f"'{java_class}' is not a delegate class", element,
                               closest(simple, catalog.delegates) or "see the delegate table in README")
            delegate_classes[name] = facts
        sequence = game_play.find("sequence")
        steps = [] if sequence is None else list(sequence.iterfind("step"))
        seen_steps = set()
        for step in steps:
            name = step.get("name", "")
            if name in seen_steps:
                self.warning("TG110", f"step name '{name}' is used twice", step,
                             "triggers find steps by name; make step names unique")
            seen_steps.add(name)
        self.names["step"] = seen_steps
        endings = catalog.step_name_endings
        for step in steps:
            name, delegate, player = step.get("name", ""), step.get("delegate", ""), step.get("player")
            self.require("delegate", delegate, step, f"step '{name}'")
            if player:
                self.require("player", player, step, f"step '{name}'")
                if not name.endswith(endings):
                    self.warning("TG151", f"step '{name}' has a player but its name ends in none of the "
                                 "phase names; the user interface refuses it", step,
                                 "end the name with e.g. CombatMove, Purchase, Place, EndTurn")
                facts = delegate_classes.get(delegate)
                if facts and facts.get("income"):
                    self.income_players.setdefault(player, step)
            runs = java_int(step.get("maxRunCount", "1") or "1")
            if self.engine == EngineName.V1_9 and runs is not None and runs <= 0:
                self.error("TG105", f"maxRunCount {runs} is not positive; 1.9 refuses it", step,
                           "remove maxRunCount for unlimited runs, or write 1 or more")
            for prop in step.iterfind("stepProperty"):
                self.check_step_property(prop)

    def check_step_property(self, element):
        name, value = element.get("name", ""), element.get("value", "")
        facts = self.catalog.step_properties.get(name)
        if facts is None:
            self.warning("TG153", f"unknown step property '{name}'; the engine ignores it", element,
                         closest(name, self.catalog.step_properties) or "see the step property table")
            return
        engines = facts.get("engines")
        if engines and self.engine not in [str(e) for e in engines]:
            self.warning("TG104", f"step property '{name}' is ignored by the {self.engine} engine", element,
                         "it only works in " + " and ".join(str(e) for e in engines))
        if facts["kind"] == "bool" and not is_bool(value):
            self.warning("TG153", f"step property '{name}' should be true or false, not '{value}'", element,
                         "write true or false")
        elif facts["kind"] == "players":
            for player in value.split(":"):
                if player and player not in self.names["player"]:
                    self.warning("TG153", f"step property '{name}' names unknown player '{player}'", element,
                                 closest(player, self.names["player"]) or "name a declared player")

    # ------------------------------------------------------------ production and technology

    def check_production(self, production):
        if production is None:
            return
        for tag, kind, what in (("productionRule", "rule", "production rule"),
                                ("repairRule", "repairRule", "repair rule")):
            for rule in production.iterfind(tag):
                self.declare(kind, rule.get("name", ""), rule, what)
                numbers = self.catalog.production_numbers
                for cost in rule.iterfind("cost"):
                    self.require("resource", cost.get("resource", ""), cost, f"{what} '{rule.get('name')}'")
                    if tag == "productionRule":
                        self.check_sensible(numbers["cost"], f"the cost in {cost.get('resource')} of {what} "
                                            f"'{rule.get('name')}'", cost.get("quantity", ""), cost)
                for result in rule.iterfind("result"):
                    if tag == "productionRule":
                        self.check_sensible(numbers["result"], f"the quantity of '{result.get('resourceOrUnit')}' "
                                            f"{what} '{rule.get('name')}' gives", result.get("quantity", ""), result)
                    target = result.get("resourceOrUnit", "")
                    if target and target not in self.names["resource"] and target not in self.names["unit"]:
                        self.error("TG122", f"unknown unit type or resource '{target}' in {what} "
                                   f"'{rule.get('name')}'", result,
                                   closest(target, self.names["unit"] | self.names["resource"])
                                   or "declare the unit type or resource first")
        for tag, child, kind, rule_kind in (("productionFrontier", "frontierRules", "frontier", "rule"),
                                            ("repairFrontier", "repairRules", "repairFrontier", "repairRule")):
            for frontier in production.iterfind(tag):
                self.declare(kind, frontier.get("name", ""), frontier, tag)
                for entry in frontier.iterfind(child):
                    self.require(rule_kind, entry.get("name", ""), entry, f"{tag} '{frontier.get('name')}'")
        for tag, kind in (("playerProduction", "frontier"), ("playerRepair", "repairFrontier")):
            for element in production.iterfind(tag):
                self.require("player", element.get("player", ""), element, f"<{tag}>")
                self.require(kind, element.get("frontier", ""), element)

    def check_technology(self, technology):
        predefined = self.catalog.predefined_techs
        techs = self.names["tech"]
        if technology is None:
            # The engine then creates the predefined advances itself.
            techs.update(predefined)
            return
        technologies = technology.find("technologies")
        for element in ([] if technologies is None else technologies.iterfind("techname")):
            name, tech = element.get("name", ""), element.get("tech")
            self.declare("tech", name, element, "technology")
            if tech:
                if tech not in predefined:
                    self.error("TG126", f"tech='{tech}' is not a predefined technology", element,
                               closest(tech, predefined) or "use one of the predefined technology keys")
                else:
                    techs.add(tech)
        for player_tech in technology.iterfind("playerTech"):
            self.require("player", player_tech.get("player", ""), player_tech, "<playerTech>")
            for tech in player_tech.iter("tech"):
                self.require("tech", tech.get("name", ""), tech, f"<playerTech player='{player_tech.get('player')}'>")

    # ------------------------------------------------------------ initial state

    def check_initialize(self, initialize):
        if initialize is None:
            return
        for element in initialize.iter("territoryOwner"):
            self.require("territory", element.get("territory", ""), element, "<territoryOwner>")
            self.require("player", element.get("owner", ""), element, "<territoryOwner>")
        for element in initialize.iter("unitPlacement"):
            unit = element.get("unitType", "")
            self.require("unit", unit, element, "<unitPlacement>")
            self.require("territory", element.get("territory", ""), element, "<unitPlacement>")
            owner = element.get("owner")
            if owner and owner.strip():
                self.require("player", owner, element, "<unitPlacement>")
            hits = java_int(element.get("hitsTaken", "0") or "0")
            if hits is not None and unit in self.names["unit"]:
                hit_points = self.unit_hit_points.get(unit, 1)
                if hits < 0 or hits > hit_points - 1:
                    self.error("TG154", f"hitsTaken {hits} is outside 0..{hit_points - 1} for '{unit}' "
                               f"({hit_points} hit points)", element, "lower hitsTaken or raise hitPoints")
            damage = java_int(element.get("unitDamage", "0") or "0")
            if damage is not None and damage < 0:
                self.error("TG154", f"unitDamage {damage} is negative", element, "write 0 or more")
        for element in initialize.iter("heldUnits"):
            self.require("unit", element.get("unitType", ""), element, "<heldUnits>")
            self.require("player", element.get("player", ""), element, "<heldUnits>")
        for element in initialize.iter("resourceGiven"):
            self.require("player", element.get("player", ""), element, "<resourceGiven>")
            self.require("resource", element.get("resource", ""), element, "<resourceGiven>")
        for element in initialize.iter("relationship"):
            self.require("player", element.get("player1", ""), element, "<relationship>")
            self.require("player", element.get("player2", ""), element, "<relationship>")
            self.require("relType", element.get("type", ""), element, "<relationship>")

    # ------------------------------------------------------------ properties

    def check_properties(self, property_list):
        self.custom_switches = {name for name, _ in self.game_property_uses}
        declared = set()
        if property_list is not None:
            for element in property_list.iterfind("property"):
                declared.add(self.check_property(element))
        for property_name, element in self.game_property_uses:
            if property_name not in declared:
                self.warning("TG161", f"condition reads game property '{property_name}', which the file does "
                             "not declare; it is always false", element,
                             closest(property_name, declared) or "declare it in <propertyList>")

    def check_property(self, element) -> str:
        catalog = self.catalog
        name = element.get("name", "")
        if self.engine == EngineName.CURRENT:
            name = catalog.renamed_properties.get(name.lower(), name)
        value_element = element.find("value")
        value = value_element.text or "" if value_element is not None else element.get("value", "")
        markers = [child.tag for child in element if child.tag in
                   ("boolean", "string", "file", "number", "color", "list", "combo")]
        editable = element.get("editable", "false").lower() == "true"
        if self.engine == EngineName.V1_9:
            if editable and len(markers) != 1:
                self.error("TG182", f"editable property '{name}' has {len(markers)} type markers; 1.9 needs "
                           "exactly one", element, "add one of <boolean/>, <number min= max=/>, <string/>")
            if element.get("min") is not None or element.get("max") is not None:
                self.warning("TG104", "1.9 ignores the min and max attributes", element,
                             "write <number min=\"..\" max=\"..\"/> inside the property")
        else:
            for marker in markers:
                if marker in ("file", "color", "list", "combo"):
                    self.warning("TG104", f"the current engine ignores <{marker}>", element,
                                 "the value is typed from its text")
        spec = self.property_spec(name)
        if spec is None:
            if name not in self.custom_switches:
                self.warning("TG181", f"no engine reads a game property called '{name}'; it does nothing",
                             element, LazyHint(lambda: closest(name, catalog.properties)
                                               or "names are matched exactly; a condition's gameProperty may "
                                                  "read custom ones"))
            return name
        if self.engine not in spec.engines:
            self.warning("TG181", f"game property '{name}' does nothing in the {self.engine} engine", element,
                         "it only exists in " + " and ".join(sorted(spec.engines)))
            return name
        text = value.strip()
        if spec.kind == "bool":
            if not is_bool(text):
                self.warning("TG180", f"game property '{name}' should be true or false, not '{value}'", element,
                             "the engine reads it as a yes/no switch")
            elif self.engine == EngineName.V1_9 and not editable and "boolean" not in markers:
                self.warning("TG180", f"1.9 stores '{name}' as text without a <boolean/> marker and fails "
                             "when it reads the switch", element, "add <boolean/> inside the property")
        elif spec.kind == "int" and java_int(text) is None:
            self.warning("TG180", f"game property '{name}' should be a whole number, not '{value}'", element,
                         "write a number")
        return name

    def property_spec(self, name):
        spec = self.catalog.properties.get(name)
        if spec is not None:
            return spec
        # "{player} bid" and the like: a player or alliance name, then a fixed suffix
        for pattern, pattern_spec in self.catalog.property_patterns.items():
            placeholder, _, suffix = pattern[1:].partition("}")
            if name.endswith(suffix):
                pool = self.names["player"] if placeholder == "player" else self.alliances
                if name[: len(name) - len(suffix)] in pool:
                    return pattern_spec
        return None

    # ------------------------------------------------------------ whole-game checks

    def check_stacking_caps(self):
        """TG412: caps 2.x never applies (generator/check/stacking.py)."""
        from generator.check.stacking import caps_without_effect

        for option, player, name, listed in caps_without_effect(self.root):
            shown = ", ".join(listed[:4]) + (f" and {len(listed) - 4} more" if len(listed) > 4 else "")
            self.warning("TG412", f"current engine: {name} of {player} lists only unit types {player} never has "
                         f"({shown}); 2.x applies a cap only to units of the listed types, so this one does "
                         "nothing there (1.9 counts them against every unit the player moves or places)", option,
                         "in 2.x, cap the types that should keep apart on their own players, or with a "
                         "unitAttachment limit; this cap works in 1.9 only")

    def check_completeness(self):
        catalog = self.catalog
        attached = self.attached
        unit_list = self.root.find("unitList")
        if unit_list is not None:
            for element in unit_list.iterfind("unit"):
                name = element.get("name", "")
                if ("unitType", name, "unitAttachment") not in attached:
                    self.error("TG147", f"unit type '{name}' has no unitAttachment", element,
                               'add <attachment name="unitAttachment" attachTo="..." '
                               'javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">')
        owned = set()
        initialize = self.root.find("initialize")
        if initialize is not None:
            owned = {e.get("territory") for e in initialize.iter("territoryOwner")
                     if e.get("owner") and e.get("owner") != catalog.null_player}
        game_map = self.root.find("map")
        if game_map is not None:
            for element in game_map.iterfind("territory"):
                name = element.get("name", "")
                if (name not in self.water or name in owned) \
                        and ("territory", name, "territoryAttachment") not in attached:
                    why = "an owned territory" if name in self.water else "a land territory"
                    self.warning("TG148", f"{why} '{name}' has no territoryAttachment", element,
                                 "the engine looks it up during play; add one (production 0 is fine)")
        types = self.root.find("relationshipTypes")
        if types is not None:
            for element in types.iterfind("relationshipType"):
                name = element.get("name", "")
                if ("relationship", name, "relationshipTypeAttachment") not in attached:
                    self.warning("TG148", f"relationship type '{name}' has no relationshipTypeAttachment", element,
                                 "add one with an archeType (war, allied or neutral)")
        player_elements = {}
        player_list = self.root.find("playerList")
        if player_list is not None:
            player_elements = {p.get("name"): p for p in player_list.iterfind("player")}
        for player, step in self.income_players.items():
            element = player_elements.get(player)
            if element is None or element.get("optional", "false").lower() == "true":
                continue
            if player not in self.capitals:
                self.warning("TG152", f"player '{player}' collects income at step '{step.get('name')}' but has "
                             "no capital; the engine fails when it looks the capital up", element,
                             f'give a territory <option name="capital" value="{player}"/>')

    def check_map_folder(self):
        mentioned = self.mentioned
        objectives = read_map_file(self.map_dir, "objectives.properties") if self.map_dir else None
        if objectives:
            mentioned = mentioned | set(_CONDITION_NAME_IN_TEXT.findall(objectives))
        for name, element in self.conditions.items():
            if name not in mentioned:
                self.warning("TG160", f"condition '{name}' is never used", element,
                             "reference it from a trigger's conditions, or remove it")

