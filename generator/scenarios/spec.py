"""The `scenarios:` section of a spec: read and shape-checked here, into Scenario objects that keep
the YAML position of every part (a failed expectation is reported at its own line).

    scenarios:
      - id: pact-pays-on-war
        rule: S000-R01                     # or a list: the rules this scenario backs
        given: {round: 1, step: germansPolitics, relationships: [[Germans, Russians, War]]}
        play: {until: {step: germansTech}, ai: none}
        expect:
          - fired: S000_R01
          - resources: {Russians: {PUs: {change: 9}}}

Only the shape is checked here; names (territories, players, steps) are checked against the
built game by generator.scenarios.variant, which has it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.core.diagnostics import Collector, Position, closest
from generator.core.enginename import ENGINE_NAMES

SCENARIO_KEYS = ("id", "rule", "text", "given", "play", "expect", "control", "control_also_without", "engines")
ENGINES = ENGINE_NAMES
OWNER_KEYS = ("owner", "clear")
GIVEN_KEYS = ("round", "step", "owners", "units", "resources", "relationships", "switches", "properties")
PLAY_KEYS = ("rounds", "until", "ai", "players", "actions", "purchases", "placements", "moves", "seed")
MOVE_KEYS = ("from", "to", "through", "units", "phase")
MOVE_PHASES = ("combat", "noncombat")
UNTIL_KEYS = ("round", "step")
UNIT_CHANGE_KEYS = ("territory", "owner", "add", "remove")
EXPECT_KINDS = ("fired", "not_fired", "resources", "owners", "units", "no_units", "relationships", "message",
                "no_message", "history", "no_history", "switches", "no_exception")
TRIGGER_KEYS = ("trigger", "round", "step")
UNITS_KEYS = ("territory", "owner", "units")
MESSAGE_KEYS = ("to", "contains")
AI_KINDS = ("none", "idle", "easy", "fast")
MAX_ROUNDS = 10  # a scenario is short: engine time adds up over every scenario and its control
# Bounds on what a scenario gives the engine (TG210): the engine holds every unit as an object, and a
# given of millions grows its JVM to gigabytes. Real set-ups stay far below: Global 1940's largest
# stack is a few dozen units, its whole map about 1,000.
MAX_UNIT_COUNT = 1_000  # one count: units of a type added, bought, placed or moved
MAX_UNITS_PER_TERRITORY = 1_000  # a given's additions to one territory, all changes together
MAX_UNITS_ADDED = 10_000  # a given's additions in all
MAX_SCRIPTED_UNITS = 1_000  # one player's purchases, or placements, in all
MAX_ROUND_NUMBER = 1_000  # a given round or play until round
MAX_AMOUNT = 1_000_000_000  # a resource amount (the engine keeps it in a Java int)
MAX_SEED = 2**63 - 1  # the engine reads it as a Java long


@dataclass
class UnitChange:
    territory: str
    owner: str
    add: dict[str, int]
    remove: dict[str, int | str]  # a count, or "all"
    position: Position


@dataclass
class Given:
    round: int | None = None
    step: str | None = None
    owners: dict[str, str] = field(default_factory=dict)
    cleared: set[str] = field(default_factory=set)  # territories whose units of other players go with the old owner
    units: list[UnitChange] = field(default_factory=list)
    resources: dict[str, dict[str, int]] = field(default_factory=dict)
    relationships: list[tuple[str, str, str]] = field(default_factory=list)
    switches: dict[str, bool] = field(default_factory=dict)
    properties: dict[str, Any] = field(default_factory=dict)
    positions: dict[str, Position] = field(default_factory=dict)  # "owners:Burma" -> where it is written


@dataclass
class Move:
    """Units a scripted player moves in its combat (or non-combat) move: from, through, to."""
    path: list[str]
    units: dict[str, int]
    phase: str
    position: Position


@dataclass
class Play:
    rounds: int = 1
    until_round: int | None = None
    until_step: str | None = None
    ai: str = "none"
    players: dict[str, str] = field(default_factory=dict)
    # scripted players: they do nothing but attempt these political and user actions (and accept every
    # proposal), buy these units ({PLAYER: {UNIT: N}}) and place these ({PLAYER: {TERRITORY: {UNIT: N}}})
    actions: dict[str, list[str]] = field(default_factory=dict)
    purchases: dict[str, dict[str, int]] = field(default_factory=dict)
    placements: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    moves: dict[str, list[Move]] = field(default_factory=dict)
    seed: int = 1
    positions: dict[str, Position] = field(default_factory=dict)


@dataclass
class Expectation:
    kind: str  # one of EXPECT_KINDS
    value: Any
    position: Position
    # The engines it is checked in: both unless they word or play this differently (per-engine
    # expectations: one for each, each with its engines)
    engines: tuple[str, ...] = ENGINE_NAMES


@dataclass
class Scenario:
    id: str
    rules: list[str]
    text: str
    given: Given
    play: Play
    expect: list[Expectation]
    position: Position
    rule_positions: list[Position] = field(default_factory=list)
    # Rules the control leaves out too, only because they name what the backed rules make (they
    # are not backed by this scenario)
    control_also_without: list[str] = field(default_factory=list)
    control_positions: list[Position] = field(default_factory=list)
    control: bool = True  # false: a check that holds with or without the rule; it backs nothing
    # control: same-game: the rule restates the game (the base's set-up, a default), so no control
    # can fail; test checks instead that the game built without it is the same game
    same_game: bool = False
    # The engines the scenario is played in (`test --engine`): both unless the engines really differ
    # on what it expects, and then its text says how
    engines: tuple[str, ...] = ENGINES


class _Reader:
    def __init__(self, collector: Collector, source: str):
        self.collector = collector
        self.source = source

    def error(self, code: str, message: str, pos: Position, hint: str = "") -> None:
        self.collector.error(code, message, pos, hint)

    @staticmethod
    def pos(value, fallback: Position) -> Position:
        return getattr(value, "pos", None) or fallback

    def mapping(self, value, what: str, pos: Position, keys: tuple[str, ...] | None) -> dict | None:
        if not isinstance(value, dict):
            self.error("TG201", f"{what} must be a mapping, not {_kind(value)}", pos,
                       f"write it as {{{', '.join(keys)}}}" if keys else "write it as {KEY: VALUE, ...}")
            return None
        if keys is not None:
            for key in value:
                if key not in keys:
                    self.error("TG200", f"unknown key '{key}' in {what}", _key_pos(value, key, pos),
                               closest(str(key), keys) or f"allowed keys: {', '.join(keys)}")
        return value

    def sequence(self, value, what: str, pos: Position) -> list:
        if not isinstance(value, list):
            self.error("TG201", f"{what} must be a list, not {_kind(value)}", pos, "write it as a YAML list")
            return []
        return value

    def name(self, value, what: str, pos: Position) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value) == "":
            self.error("TG201", f"{what} must be a name, not {_kind(value)}", pos, "")
            return None
        return str(value)

    def integer(self, value, what: str, pos: Position, minimum: int = 0, maximum: int | None = None,
                bound: int | None = None) -> int | None:
        """A whole number from minimum to maximum (TG201 otherwise), and at most bound (TG210: a
        size the engine must not be given)."""
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum or \
                (maximum is not None and value > maximum):
            allowed = f"from {minimum} to {maximum}" if maximum is not None else f"of at least {minimum}"
            self.error("TG201", f"{what} must be a whole number {allowed}, not {value!r}", pos, "")
            return None
        if bound is not None and value > bound:
            self.over_bound(f"{what} is {value:,}", bound, pos)
            return None
        return value

    def over_bound(self, what: str, bound: int, pos: Position) -> None:
        self.error("TG210", f"{what}, over the bound of {bound:,}", pos,
                   "a scenario sets up a few units and plays a few steps; the engine holds every unit in memory")

    def names(self, value, what: str, pos: Position) -> list[str]:
        items = value if isinstance(value, list) else [value]
        return [n for n in (self.name(item, what, _item_pos(items, i, pos)) for i, item in enumerate(items)) if n]


def _kind(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true/false"
    return "nothing" if value is None else f"'{value}'"


def _key_pos(mapping, key, fallback: Position) -> Position:
    return mapping.position_of(key) if hasattr(mapping, "position_of") else fallback


def _item_pos(items, index: int, fallback: Position) -> Position:
    return items.position_of(index) if hasattr(items, "position_of") else fallback


def read_scenarios(data, source: str, collector: Collector) -> list[Scenario]:
    """The scenarios of a spec's top-level mapping (none when it has no scenarios: key); every
    shape problem goes to collector with its position."""
    if not isinstance(data, dict) or "scenarios" not in data:
        return []
    r = _Reader(collector, source)
    section_pos = _key_pos(data, "scenarios", Position(source, 1, 1))
    scenarios: list[Scenario] = []
    seen: dict[str, Position] = {}
    for index, item in enumerate(r.sequence(data["scenarios"], "scenarios", section_pos)):
        pos = _item_pos(data["scenarios"], index, section_pos)
        scenario = _read_scenario(r, item, pos)
        if scenario is None:
            continue
        if scenario.id in seen:
            r.error("TG202", f"scenario id '{scenario.id}' is used twice", scenario.position,
                    f"the first is at {seen[scenario.id]}; give each scenario its own id")
            continue
        seen[scenario.id] = scenario.position
        scenarios.append(scenario)
    return scenarios


def _read_scenario(r: _Reader, item, pos: Position) -> Scenario | None:
    body = r.mapping(item, "a scenario", pos, SCENARIO_KEYS)
    if body is None:
        return None
    at = lambda key: _key_pos(body, key, pos)
    for key in ("id", "rule", "expect"):
        if key not in body:
            r.error("TG201", f"a scenario needs '{key}'", pos, "every scenario has an id, the rule(s) it backs "
                    "and what it expects")
    ident = r.name(body.get("id"), "scenario id", at("id")) if "id" in body else None
    rules = r.names(body.get("rule"), "rule of a scenario", at("rule")) if "rule" in body else []
    rule_items = body.get("rule") if isinstance(body.get("rule"), list) else [body.get("rule")]
    rule_positions = [_item_pos(rule_items, i, at("rule")) for i in range(len(rules))]
    text = str(body.get("text") or "")
    given = _read_given(r, body.get("given"), at("given")) if "given" in body else Given()
    play = _read_play(r, body.get("play"), at("play")) if "play" in body else Play()
    expect = _read_expect(r, body.get("expect"), at("expect")) if "expect" in body else []
    if "expect" in body and not expect and isinstance(body.get("expect"), list):
        r.error("TG201", "a scenario needs at least one expectation", at("expect"), "")
    if ident is None:
        return None
    also = r.names(body["control_also_without"], "rule of control_also_without", at("control_also_without")) \
        if "control_also_without" in body else []
    also_items = body.get("control_also_without") if isinstance(body.get("control_also_without"), list) else [None]
    also_positions = [_item_pos(also_items, i, at("control_also_without")) for i in range(len(also))]
    control = body.get("control", True)
    same_game = control == "same-game"
    if same_game:
        control = False
    elif not isinstance(control, bool):
        r.error("TG201", f"control must be true, false or same-game, not {control!r}", at("control"),
                "control: false for a check that holds with or without the rule (it backs nothing); same-game "
                "for a rule that restates the game (test checks that the game built without it is the same)")
        control = True
    engines = _read_engines(r, body["engines"], at("engines")) if "engines" in body else ENGINES
    return Scenario(ident, rules, text, given, play, expect, pos, rule_positions, also, also_positions, control,
                    same_game, engines)


def _read_engines(r: _Reader, value, pos: Position) -> tuple[str, ...]:
    """engines: [1.9] or [current] (YAML reads a bare 1.9 as a number: taken as the name)."""
    items = value if isinstance(value, list) else [value]
    names = [format(item, "g") if isinstance(item, float) else str(item) for item in items]
    unknown = [name for name in names if name not in ENGINES]
    if unknown or not names:
        r.error("TG201", f"engines must list engines of {', '.join(ENGINES)}, not "
                + (", ".join(map(repr, unknown)) if unknown else "none"), pos,
                "engines: [1.9] for a scenario only the 1.9 engine plays as expected (its text says why)")
        return ENGINES
    return tuple(name for name in ENGINES if name in names)


def _read_given(r: _Reader, value, pos: Position) -> Given:
    given = Given()
    body = r.mapping(value, "given", pos, GIVEN_KEYS)
    if body is None:
        return given
    at = lambda key: _key_pos(body, key, pos)
    if "round" in body:
        given.round = r.integer(body["round"], "given round", at("round"), minimum=1, bound=MAX_ROUND_NUMBER)
    if "step" in body:
        given.step = r.name(body["step"], "given step", at("step"))
        given.positions["step"] = at("step")
    owners = r.mapping(body.get("owners", {}), "given owners", at("owners"), None) or {}
    for territory, owner in owners.items():
        tpos = _key_pos(owners, territory, at("owners"))
        if isinstance(owner, dict):  # {owner: PLAYER, clear: true}: the other players' units taken out
            entry = r.mapping(owner, f"owner of {territory}", tpos, OWNER_KEYS) or {}
            owner, clear = entry.get("owner"), entry.get("clear", False)
            if not isinstance(clear, bool):
                r.error("TG201", f"clear of {territory} must be true or false, not {clear!r}", tpos,
                        "clear: true takes every unit of another player out of the territory")
                continue
            if owner is None:
                r.error("TG201", f"the owner of {territory} is missing", tpos,
                        f"write {territory}: {{owner: PLAYER, clear: true}}")
                continue
            if clear:
                given.cleared.add(str(territory))
        if r.name(owner, f"owner of {territory}", tpos):
            given.owners[str(territory)] = str(owner)
            given.positions[f"owners:{territory}"] = tpos
    for index, change in enumerate(r.sequence(body.get("units", []), "given units", at("units"))):
        cpos = _item_pos(body["units"], index, at("units"))
        unit_change = _read_unit_change(r, change, cpos)
        if unit_change:
            given.units.append(unit_change)
    _check_units_added(r, given.units, at("units"))
    resources = r.mapping(body.get("resources", {}), "given resources", at("resources"), None) or {}
    for player, amounts in resources.items():
        ppos = _key_pos(resources, player, at("resources"))
        amounts = r.mapping(amounts, f"resources of {player}", ppos, None) or {}
        given.resources[str(player)] = {str(resource): amount for resource, amount in amounts.items()
                                        if r.integer(amount, f"{player}'s {resource}", _key_pos(amounts, resource, ppos),
                                                     bound=MAX_AMOUNT) is not None}
        given.positions[f"resources:{player}"] = ppos
    for index, pair in enumerate(r.sequence(body.get("relationships", []), "given relationships",
                                            at("relationships"))):
        ppos = _item_pos(body["relationships"], index, at("relationships"))
        triple = _relationship(r, pair, ppos)
        if triple:
            given.relationships.append(triple)
            given.positions[f"relationships:{index}"] = ppos
    switches = r.mapping(body.get("switches", {}), "given switches", at("switches"), None) or {}
    for name, on in switches.items():
        spos = _key_pos(switches, name, at("switches"))
        if not isinstance(on, bool):
            r.error("TG201", f"switch {name} must be true or false, not {on!r}", spos, "")
            continue
        given.switches[str(name)] = on
        given.positions[f"switches:{name}"] = spos
    properties = r.mapping(body.get("properties", {}), "given properties", at("properties"), None) or {}
    for name, prop in properties.items():
        if isinstance(prop, (dict, list)) or prop is None:
            r.error("TG201", f"property {name} must be a single value", _key_pos(properties, name, pos), "")
            continue
        given.properties[str(name)] = prop
        given.positions[f"properties:{name}"] = _key_pos(properties, name, pos)
    return given


def _relationship(r: _Reader, pair, pos: Position) -> tuple[str, str, str] | None:
    if not isinstance(pair, list) or len(pair) != 3 or not all(isinstance(x, str) for x in pair):
        r.error("TG201", f"a relationship must be [PLAYER, PLAYER, TYPE], not {pair!r}", pos,
                "e.g. [Germans, Russians, War]")
        return None
    return pair[0], pair[1], pair[2]


def _read_unit_change(r: _Reader, value, pos: Position) -> UnitChange | None:
    body = r.mapping(value, "a unit change", pos, UNIT_CHANGE_KEYS)
    if body is None:
        return None
    at = lambda key: _key_pos(body, key, pos)
    territory = r.name(body.get("territory"), "territory of a unit change", at("territory"))
    owner = r.name(body.get("owner"), "owner of a unit change", at("owner"))
    counts: dict[str, dict] = {}
    written = False  # counts were written, even if refused (then reported already)
    for key in ("add", "remove"):
        units = r.mapping(body.get(key, {}), f"{key} of a unit change", at(key), None) or {}
        written = written or bool(units)
        counts[key] = {}
        for unit, count in units.items():
            if key == "remove" and count == "all":
                counts[key][str(unit)] = "all"
            elif r.integer(count, f"number of {unit} to {key}", _key_pos(units, unit, at(key)), minimum=1,
                           bound=MAX_UNIT_COUNT) is not None:
                counts[key][str(unit)] = count
    if not counts["add"] and not counts["remove"]:
        if written:
            return None
        r.error("TG201", "a unit change needs add: or remove:", pos, "e.g. {territory: Burma, owner: British, "
                "add: {infantry: 2}}")
        return None
    if territory is None or owner is None:
        return None
    return UnitChange(territory, owner, counts["add"], counts["remove"], pos)


def _read_play(r: _Reader, value, pos: Position) -> Play:
    play = Play()
    body = r.mapping(value, "play", pos, PLAY_KEYS)
    if body is None:
        return play
    at = lambda key: _key_pos(body, key, pos)
    if "rounds" in body:
        play.rounds = r.integer(body["rounds"], "play rounds", at("rounds"), minimum=1, maximum=MAX_ROUNDS) or 1
    if "until" in body:
        until = r.mapping(body["until"], "play until", at("until"), UNTIL_KEYS)
        if until is not None:
            if "step" not in until:
                r.error("TG201", "play until needs a step", at("until"), "e.g. until: {round: 1, step: germansBattle}")
            else:
                play.until_step = r.name(until["step"], "play until step", _key_pos(until, "step", pos))
                play.positions["until"] = _key_pos(until, "step", pos)
            if "round" in until:
                play.until_round = r.integer(until["round"], "play until round", _key_pos(until, "round", pos), 1,
                                             bound=MAX_ROUND_NUMBER)
    if "ai" in body:
        play.ai = _ai(r, body["ai"], at("ai")) or "none"
    players = r.mapping(body.get("players", {}), "play players", at("players"), None) or {}
    for player, ai in players.items():
        ppos = _key_pos(players, player, at("players"))
        chosen = _ai(r, ai, ppos)
        if chosen:
            play.players[str(player)] = chosen
            play.positions[f"players:{player}"] = ppos
    actions = r.mapping(body.get("actions", {}), "play actions", at("actions"), None) or {}
    for player, names in actions.items():
        apos = _key_pos(actions, player, at("actions"))
        play.actions[str(player)] = r.names(names, f"political or user action of {player}", apos)
        play.positions[f"actions:{player}"] = apos
    purchases = r.mapping(body.get("purchases", {}), "play purchases", at("purchases"), None) or {}
    for player, units in purchases.items():
        ppos = _key_pos(purchases, player, at("purchases"))
        play.purchases[str(player)] = _unit_counts(r, units, f"purchase of {player}", ppos)
        play.positions[f"purchases:{player}"] = ppos
        _check_total(r, sum(play.purchases[str(player)].values()), f"{player}'s purchases", MAX_SCRIPTED_UNITS, ppos)
    placements = r.mapping(body.get("placements", {}), "play placements", at("placements"), None) or {}
    for player, territories in placements.items():
        ppos = _key_pos(placements, player, at("placements"))
        by_territory = r.mapping(territories, f"placements of {player}", ppos, None) or {}
        play.placements[str(player)] = {
            str(territory): _unit_counts(r, units, f"placement of {player} in {territory}",
                                         _key_pos(by_territory, territory, ppos))
            for territory, units in by_territory.items()}
        play.positions[f"placements:{player}"] = ppos
        _check_total(r, sum(sum(units.values()) for units in play.placements[str(player)].values()),
                     f"{player}'s placements", MAX_SCRIPTED_UNITS, ppos)
    moves = r.mapping(body.get("moves", {}), "play moves", at("moves"), None) or {}
    for player, entries in moves.items():
        mpos = _key_pos(moves, player, at("moves"))
        if not isinstance(entries, list):
            r.error("TG201", f"moves of {player} must be a list of moves", mpos,
                    "e.g. moves: {Germans: [{from: Poland, to: Belarus, units: {infantry: 2}}]}")
            continue
        play.moves[str(player)] = [m for index, entry in enumerate(entries)
                                   if (m := _read_move(r, entry, _item_pos(entries, index, mpos))) is not None]
        play.positions[f"moves:{player}"] = mpos
    if "seed" in body:
        play.seed = r.integer(body["seed"], "play seed", at("seed"), bound=MAX_SEED) or 0
    return play


def _read_move(r: _Reader, value, pos: Position) -> Move | None:
    body = r.mapping(value, "a move", pos, MOVE_KEYS)
    if body is None:
        return None
    at = lambda key: _key_pos(body, key, pos)
    start = r.name(body.get("from"), "from of a move", at("from"))
    end = r.name(body.get("to"), "to of a move", at("to"))
    through = body.get("through", [])
    if not isinstance(through, list):
        r.error("TG201", "through of a move must be a list of territories", at("through"), "e.g. through: [Belarus]")
        through = []
    path = [start] + [r.name(t, "a territory of through", at("through")) for t in through] + [end]
    units = _unit_counts(r, body.get("units"), "units of a move", at("units"))
    phase = body.get("phase", "combat")
    if phase not in MOVE_PHASES:
        r.error("TG201", f"phase of a move must be combat or noncombat, not {phase!r}", at("phase"), "")
        return None
    steps = [step for step in path if step is not None]  # None: a name reported as bad
    if len(steps) < len(path) or not units:
        if not units:
            r.error("TG201", "a move needs units: {UNIT: N}", pos, "e.g. {from: Poland, to: Belarus, units: {infantry: 2}}")
        return None
    return Move(steps, units, phase, pos)


def _unit_counts(r: _Reader, value, what: str, pos: Position) -> dict[str, int]:
    """{UNIT: N} with N from 1 to MAX_UNIT_COUNT."""
    units = r.mapping(value, what, pos, None) or {}
    return {str(unit): count for unit, count in units.items()
            if r.integer(count, f"number of {unit} ({what})", _key_pos(units, unit, pos), minimum=1,
                         bound=MAX_UNIT_COUNT) is not None}


def _check_total(r: _Reader, total: int, what: str, bound: int, pos: Position) -> None:
    if total > bound:
        r.over_bound(f"{what} add up to {total:,} units", bound, pos)


def _check_units_added(r: _Reader, changes: list[UnitChange], pos: Position) -> None:
    """A given adds at most MAX_UNITS_PER_TERRITORY to one territory and MAX_UNITS_ADDED in all
    (each count is bounded on its own already): reported at the change that goes over."""
    per_territory: dict[str, int] = {}
    total = 0
    for change in changes:
        added = sum(change.add.values())
        per_territory[change.territory] = per_territory.get(change.territory, 0) + added
        total += added
        if added and per_territory[change.territory] > MAX_UNITS_PER_TERRITORY:
            r.over_bound(f"the given adds {per_territory[change.territory]:,} units to {change.territory}",
                         MAX_UNITS_PER_TERRITORY, change.position)
            return
        if added and total > MAX_UNITS_ADDED:
            r.over_bound(f"the given adds {total:,} units in all", MAX_UNITS_ADDED, change.position)
            return


def _ai(r: _Reader, value, pos: Position) -> str | None:
    if value not in AI_KINDS:
        r.error("TG201", f"unknown AI {value!r}", pos, f"choose one of: {', '.join(AI_KINDS)} (none: the "
                "engine's does-nothing AI)")
        return None
    return value


def _read_expect(r: _Reader, value, pos: Position) -> list[Expectation]:
    expectations = []
    for index, item in enumerate(r.sequence(value, "expect", pos)):
        ipos = _item_pos(value, index, pos)
        body = r.mapping(item, "an expectation", ipos, EXPECT_KINDS + ("engines",))
        if body is None:
            continue
        engines = ENGINES
        if "engines" in body:
            engines_pos = _key_pos(body, "engines", ipos)
            engines = _read_engines(r, body.pop("engines"), engines_pos)
        if len(body) != 1:
            r.error("TG201", "an expectation has exactly one kind", ipos,
                    f"write one list item per expectation; kinds: {', '.join(EXPECT_KINDS)}")
            continue
        kind, raw = next(iter(body.items()))
        if kind not in EXPECT_KINDS:
            continue
        kpos = _key_pos(body, kind, ipos)
        parsed = _expectation_value(r, kind, raw, kpos)
        if parsed is not None:
            expectations.append(Expectation(kind, parsed, kpos, engines))
    return expectations


def _expectation_value(r: _Reader, kind: str, raw, pos: Position):
    if kind in ("fired", "not_fired"):
        if isinstance(raw, dict):
            body = r.mapping(raw, kind, pos, TRIGGER_KEYS)
            if body is None or "trigger" not in body:
                r.error("TG201", f"{kind} needs a trigger", pos, "e.g. {trigger: S000_R01, round: 1}")
                return None
            return {"trigger": r.name(body["trigger"], "trigger", pos), "round": body.get("round"),
                    "step": body.get("step")}
        name = r.name(raw, f"{kind} trigger", pos)
        return {"trigger": name, "round": None, "step": None} if name else None
    if kind == "resources":
        players = r.mapping(raw, "expected resources", pos, None)
        if players is None:
            return None
        wanted = {}
        for player, amounts in players.items():
            amounts = r.mapping(amounts, f"expected resources of {player}", pos, None) or {}
            for resource, amount in amounts.items():
                parsed = _amount(amount)
                if parsed is None:
                    r.error("TG201", f"expected {player}'s {resource} must be N, {{change: N}} (from the start), "
                            f"{{at_least: N}} or {{at_most: N}}, not {amount!r}", pos, "")
                else:
                    wanted[(str(player), str(resource))] = parsed
        return wanted
    if kind == "owners":
        owners = r.mapping(raw, "expected owners", pos, None)
        return {str(t): str(o) for t, o in owners.items()} if owners is not None else None
    if kind in ("units", "no_units"):
        body = r.mapping(raw, kind, pos, UNITS_KEYS)
        if body is None:
            return None
        if "territory" not in body:
            r.error("TG201", f"{kind} needs a territory", pos, "e.g. {territory: Germany, owner: Germans, "
                    "units: {fighter: 3}}")
            return None
        units = r.mapping(body.get("units", {}), f"{kind} units", pos, None) or {}
        if kind == "units" and not units:
            r.error("TG201", "units needs the units expected (units: {TYPE: COUNT})", pos, "")
            return None
        counts = {}
        for unit, count in units.items():
            parsed = _amount(count)
            if parsed is None or parsed[0] == "change":
                r.error("TG201", f"count of {unit} must be N, {{at_least: N}} or {{at_most: N}}, not {count!r}",
                        pos, "")
            else:
                counts[str(unit)] = parsed
        return {"territory": str(body["territory"]), "owner": body.get("owner"), "units": counts}
    if kind == "relationships":
        triples = [_relationship(r, pair, pos) for pair in r.sequence(raw, "expected relationships", pos)]
        return [t for t in triples if t] or None
    if kind in ("message", "no_message"):
        body = r.mapping(raw if isinstance(raw, dict) else {"contains": raw}, kind, pos, MESSAGE_KEYS)
        if body is None or not isinstance(body.get("contains"), str):
            r.error("TG201", f"{kind} needs the text it contains", pos, "e.g. {to: Russians, contains: pact}")
            return None
        return {"to": body.get("to"), "contains": body["contains"]}
    if kind == "switches":
        switches = r.mapping(raw, "expected switches", pos, None)
        if switches is None:
            return None
        if not all(isinstance(on, bool) for on in switches.values()):
            r.error("TG201", "expected switches are true or false", pos, "e.g. {conditionAttachment_X: false}")
            return None
        return {str(name): on for name, on in switches.items()}
    if kind in ("history", "no_history"):
        # A list: one line holds every part (a battle's roll: the units and the strength they rolled at).
        parts = [raw] if isinstance(raw, str) else raw
        if not isinstance(parts, list) or not parts or not all(isinstance(part, str) and part for part in parts):
            r.error("TG201", f"{kind} takes the text of a history line (a part of it), or a list of parts "
                    "one line holds", pos, "e.g. no_history: could not land; history: [2 marines in Kiangsu, rolled at 2]")
            return None
        return tuple(parts)
    if kind == "no_exception":
        if raw is not True:
            r.error("TG201", "no_exception takes true", pos, "")
            return None
        return True
    return None


AMOUNT_KEYS = {"change": "change", "at_least": "ge", "at_most": "le"}


def _amount(value) -> tuple[str, int] | None:
    """An expected number: N (exactly), {change: N} (N more than at the start; negative: less),
    {at_least: N} or {at_most: N}; as (kind, N) with kind eq, change, ge or le."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return ("eq", value)
    if isinstance(value, dict) and len(value) == 1:
        key, number = next(iter(value.items()))
        if key in AMOUNT_KEYS and isinstance(number, int) and not isinstance(number, bool):
            return (AMOUNT_KEYS[key], number)
    return None
