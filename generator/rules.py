"""Expand a spec's `rules:` into the game model.

    rules:
      - id: S000-R01
        text: The first time Germany attacks the USSR, the USSR gets 9 PUs.
        use: one_time_payment          # a macro: templates/rules/one_time_payment.xml.j2
        with: {receiver: Russians, amount: 9, attackers: [Germans, Italians]}
      - id: S000-R08
        text: The pact penalty falls by 1 each round from 8 in round 3.
        for: {round: 3..10}            # loops: lists or inclusive ranges, crossed
        use: round_payment
        with: {payer: Japanese, amount: "{{ 11 - round }}", rounds: "{{ round }}"}
      - id: S000-R04
        text: Only one counter-attack in the first round after the payment.
        status: notes                  # the engine cannot enforce it: listed in the game notes only

Each macro renders an XML fragment (attachments, steps, properties, ...) that is
read back into the model with every entity placed at the rule's YAML line, so
later checks point at the rule that produced it."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from . import model as m
from .diagnostics import Collector, DiagnosticError, Position, closest
from .importer import read_gameplay, XmlReader, import_tree
from .macros import NO_DEFAULT, Macro, NameIndex, check_value, load_macros
from .overlay import add_fragment, set_options
from .render import environment
from .safexml import parse_xml_bytes
from .spec import SpecReader

RULE_KEYS = ("id", "text", "use", "with", "for", "status", "note")
STATUSES = ("enforced", "partial", "notes")
_RANGE = re.compile(r"\A(-?\d+)\.\.(-?\d+)\Z")
MAX_LOOP_ITERATIONS = 10_000


@dataclass
class RuleRecord:
    """What the notes and the coverage report say about one rule."""

    id: str
    text: str
    status: str
    macro: str | None
    note: str
    pos: Position
    generated: list[str] = field(default_factory=list)  # names of the attachments it produced

    def as_json(self) -> dict:
        return {"id": self.id, "text": self.text, "status": self.status, "macro": self.macro, "note": self.note,
                "generated": self.generated, "line": self.pos.line}


def expand_rules(data, game: m.Game, source: str, spec_dir: Path, collector: Collector,
                 macro_dirs: list[Path] = ()) -> list[RuleRecord]:
    r = SpecReader(source, collector)
    rules = r.sequence(data, "rules", r.pos(data))
    if not rules:
        return []
    macros = load_macros([d for d in macro_dirs if d.is_dir()] or ([spec_dir / "macros"]
                                                                    if (spec_dir / "macros").is_dir() else []))
    index = NameIndex(game)
    records, seen = [], {}
    for position, body in enumerate(rules):
        pos = r.pos(body, rules.position_of(position))
        if not isinstance(body, dict):
            r.error("TG060", "each rule must be a mapping with id, text and use (or status: notes)", pos,
                    "write - {id: R1, text: ..., use: macro_name, with: {...}}")
            continue
        record = _expand_rule(r, body, pos, game, macros, index)
        if record is None:
            continue
        if record.id in seen:
            r.error("TG060", f"rule id '{record.id}' is used twice (first at line {seen[record.id].line})", pos,
                    "give every rule its own id")
        seen[record.id] = pos
        records.append(record)
    return records


def _expand_rule(r: SpecReader, body, pos: Position, game: m.Game, macros: dict[str, Macro],
                 index: NameIndex) -> RuleRecord | None:
    r.check_keys(body, RULE_KEYS, "a rule")
    at = body.position_of
    rule_id = r.text(body.get("id"), "rule id", pos, required=True) or ""
    text = r.text(body.get("text"), f"text of rule {rule_id}", pos, required=True) or ""
    note = r.text(body.get("note"), f"note of rule {rule_id}", at("note")) or ""
    macro_name = r.text(body.get("use"), f"macro of rule {rule_id}", at("use"))
    status = r.text(body.get("status"), f"status of rule {rule_id}", at("status"))
    if status is not None and status not in STATUSES:
        r.error("TG060", f"status of rule {rule_id} must be one of {', '.join(STATUSES)}, not '{status}'",
                at("status"), closest(status, STATUSES) or "enforced: the engine enforces it; partial: in part; "
                "notes: only listed in the game notes")
        return None
    if macro_name is None:
        if status != "notes":
            r.error("TG060", f"rule {rule_id} has no 'use:' macro", pos,
                    "name a macro with use:, or write status: notes for a rule the engine cannot enforce")
            return None
        return RuleRecord(rule_id, text, "notes", None, note, pos)
    macro = macros.get(macro_name)
    if macro is None:
        r.error("TG061", f"unknown macro '{macro_name}'", at("use"),
                closest(macro_name, macros) or f"macros: {', '.join(sorted(macros))}")
        return None
    record = RuleRecord(rule_id, text, status or macro.status, macro.name, note, pos)
    for loop_vars in _iterations(r, body.get("for"), at("for")):
        values = _parameters(r, macro, body.get("with"), at("with"), loop_vars, index, rule_id)
        if values is None:
            return record
        key = _rule_key(rule_id, loop_vars)
        fragment = _render(r, macro, values, key, rule_id, game, pos)
        if fragment is not None:
            record.generated += _merge(r, fragment, game, pos, index)
    return record


def _iterations(r: SpecReader, data, pos: Position) -> list[dict]:
    if data is None:
        return [{}]
    loops = r.mapping(data, "for", pos)
    if loops is None:
        return []
    axes = []
    for name, values in loops.items():
        vpos = loops.position_of(name)
        if isinstance(values, str) and _RANGE.match(values):
            low, high = map(int, _RANGE.match(values).groups())
            values = list(range(low, high + 1))
        if not isinstance(values, list) or not values:
            r.error("TG065", f"loop '{name}' needs a list of values or a range such as 3..10", vpos,
                    "write for: {player: [Germans, Italians]} or for: {round: 3..10}")
            return []
        axes.append([(str(name), v) for v in values])
    combinations = list(itertools.islice(itertools.product(*axes), MAX_LOOP_ITERATIONS + 1))
    if len(combinations) > MAX_LOOP_ITERATIONS:
        r.error("TG065", f"loops expand to more than {MAX_LOOP_ITERATIONS} rules", pos, "loop over fewer values")
        return []
    return [dict(c) for c in combinations]


def _substitute(value, loop_vars: dict):
    """Loop variables in `{{ }}` expressions; a result that is a whole number becomes an int."""
    if isinstance(value, list):
        return [_substitute(v, loop_vars) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, loop_vars) for k, v in value.items()}
    if not isinstance(value, str) or "{{" not in value:
        return value
    text = environment().from_string(value).render(**loop_vars)
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _parameters(r: SpecReader, macro: Macro, data, pos: Position, loop_vars: dict, index: NameIndex,
                rule_id: str) -> dict | None:
    given = r.mapping(data, f"with of rule {rule_id}", pos)
    if given is None:
        return None
    values, ok = {}, True
    for name in given:
        if name not in macro.params:
            r.error("TG062", f"macro '{macro.name}' has no parameter '{name}'", given.position_of(name),
                    closest(str(name), macro.params) or f"its parameters: {', '.join(macro.params) or 'none'}")
            ok = False
    for name, param in macro.params.items():
        if name not in given:
            if param.required:
                r.error("TG062", f"macro '{macro.name}' needs parameter '{name}' ({param.type})", pos,
                        param.doc or f"add {name}: under with:")
                ok = False
            else:
                values[name] = param.default
            continue
        ppos = given.position_of(name)
        try:
            raw = _substitute(given[name], loop_vars)
        except Exception as err:  # a template error in the user's expression
            r.error("TG065", f"cannot evaluate parameter '{name}': {err}", ppos, "check the {{ }} expression")
            ok = False
            continue
        checked = check_value(param, raw, index, r.error, ppos)
        ok = ok and checked is not None
        values[name] = checked
    return values if ok else None


def _rule_key(rule_id: str, loop_vars: dict) -> str:
    """A readable, deterministic name part for what a rule generates, e.g. S000_R08_Japanese_3."""
    parts = [rule_id] + [str(v) for v in loop_vars.values()]
    return re.sub(r"[^A-Za-z0-9]+", "_", "_".join(parts)).strip("_")


class _Helpers:
    """Look-ups a macro template may call (the sandbox lets templates call these methods only)."""

    def __init__(self, game: m.Game):
        self._game = game

    def phase_step(self, player: str, phase: str) -> str:
        """The name of the player's step whose name ends with phase (e.g. Purchase, Politics, Battle)."""
        for step in self._game.steps or []:
            if step.player == player and step.name.endswith(phase) and not (
                    phase == "CombatMove" and step.name.endswith(("NonCombatMove", "AirborneCombatMove"))):
                return step.name
        raise LookupError(f"the game has no {phase} step for {player}")

    def has_phase(self, player: str, phase: str) -> bool:
        try:
            self.phase_step(player, phase)
        except LookupError:
            return False
        return True

    def capital(self, player: str) -> str:
        for attachment in self._game.attachments or []:
            if attachment.class_name == "TerritoryAttachment":
                if any(o.name == "capital" and o.value == player for o in attachment.options):
                    return attachment.attach_to
        raise LookupError(f"the game has no capital for {player}")

    def enemies(self, player: str) -> list[str]:
        """Players who share no alliance with player."""
        mine = {a.alliance for a in self._game.alliances if a.player == player}
        friends = {a.player for a in self._game.alliances if a.alliance in mine}
        return [p.name for p in self._game.players if p.name not in friends and p.name != player]


def _render(r: SpecReader, macro: Macro, values: dict, key: str, rule_id: str, game: m.Game,
            pos: Position) -> etree._ElementTree | None:
    env = environment(macro.path.parent)
    try:
        text = env.get_template(macro.path.name).render(key=key, rule_id=rule_id, game=_Helpers(game), **values)
    except LookupError as err:
        r.error("TG063", f"macro '{macro.name}': {err}", pos, "the base game lacks what this macro needs")
        return None
    except Exception as err:  # errors inside a (possibly user-written) template
        r.error("TG063", f"macro '{macro.name}' failed: {type(err).__name__}: {err}", pos,
                f"check the macro template {macro.path.name}")
        return None
    try:
        return parse_xml_bytes(text.encode("utf-8"), f"macro {macro.name}", root_tag="fragment")
    except DiagnosticError as err:
        for d in err.diagnostics:
            r.error("TG063", f"macro '{macro.name}' rendered bad XML: {d.message} (line {d.position.line})", pos,
                    f"check the macro template {macro.path.name}")
        return None


def _merge(r: SpecReader, tree: etree._ElementTree, game: m.Game, pos: Position, index: NameIndex) -> list[str]:
    """Read a rendered fragment into the model; returns the names of the attachments it added or changed."""
    root = tree.getroot()
    reader = XmlReader(r.source, r.collector, pos)
    generated = []
    for sequence in root.findall("sequence"):
        root.remove(sequence)
        _insert_steps(r, reader, sequence, game, pos)
    merges = [a for a in root.iter("attachment") if a.get("mode") == "merge"]
    for element in merges:
        element.getparent().remove(element)
        target = next((a for a in game.attachments or [] if a.name == element.get("name")
                       and a.attach_to == element.get("attachTo")), None)
        if target is None:
            target = m.Attachment(element.get("name", ""), element.get("attachTo", ""),
                                  element.get("javaClass", ""), element.get("type"), pos=pos)
            game.attachments = (game.attachments or []) + [target]
        set_options(target, [m.Option(o.get("name", ""), o.get("value"), o.get("count"), pos)
                             for o in element.iter("option")])
        generated.append(f"{target.name}@{target.attach_to}")
    for element in [p for p in root.iter("property") if p.get("mode") == "merge"]:
        # a macro that needs a game option switched on keeps the base's own declaration of it
        element.getparent().remove(element)
        existing = next((p for p in game.properties or [] if p.name == element.get("name")), None)
        if existing is not None:
            existing.value, existing.text = element.get("value"), None
        else:
            element.attrib.pop("mode")
            holder = etree.Element("propertyList")
            holder.append(element)
            add_fragment(game, import_tree(etree.ElementTree(_wrap(holder)), r.source, r.collector, pos))
    fragment = import_tree(tree, r.source, r.collector, fixed_position=pos)
    add_fragment(game, fragment)
    generated += [a.name for a in fragment.attachments or []]
    index.add("attachment", (a.name for a in fragment.attachments or []))
    index.add("player", (p.name for p in fragment.players))
    index.add("territory", (t.name for t in fragment.territories))
    index.add("unit type", (u.name for u in fragment.units or []))
    index.add("step", (s.name for s in game.steps or []))
    return generated


def _wrap(section) -> etree._Element:
    root = etree.Element("fragment")
    root.append(section)
    return root


def _insert_steps(r: SpecReader, reader: XmlReader, sequence, game: m.Game, pos: Position) -> None:
    holder = m.Game()
    placement = {key: sequence.get(key) for key in ("insertAfter", "insertBefore", "replace")}
    sequence.attrib.clear()
    wrapper = etree.Element("gamePlay")
    wrapper.append(sequence)
    read_gameplay(reader, wrapper, holder)
    steps = holder.steps or []
    names = [s.name for s in game.steps or []]
    if placement["replace"] == "true":
        game.steps = steps
        return
    anchor = placement["insertAfter"] or placement["insertBefore"]
    if anchor is None:
        game.steps = (game.steps or []) + steps
        return
    if anchor not in names:
        r.error("TG064", f"the game has no step '{anchor}' to insert steps next to", pos,
                closest(anchor, names) or "check the step name")
        return
    at = names.index(anchor) + (1 if placement["insertAfter"] else 0)
    game.steps[at:at] = steps
