"""Expand a spec's `rules:` into the game model.

    rules:
      - id: S000-R01
        text: The first time Germany attacks the USSR, the USSR gets 9 PUs.
        use: first_war_payment         # a macro: templates/rules/first_war_payment.xml.j2
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
later checks point at the rule that produced it. Besides the game XML's own
elements a fragment may hold a few instructions (generator.rules.fragments)."""
from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple
from pathlib import Path

import jinja2
from lxml import etree

from generator.model import game as m
from generator.model.rulerecord import RuleRecord
from generator.core.diagnostics import Collector, DiagnosticError, Position, closest, closest_name
from generator.rules.fragments import merge_fragment, order_attachments
from generator.rules import rendermemo
from generator.rules.macros import (RULES_DIR, Macro, MacroError, NameIndex, check_value, identifier, load_macros,
                                     macro_environment)
from generator.speclang.overlay import apply_changes
from generator.render import sections
from generator.render.templates import text_environment
from generator.rules.conditions import Conditions
from generator.rules.helpers import GameHelpers
from generator.render.sandbox import SandboxLimit, build_budget
from generator.read.safexml import parse_xml_bytes
from generator.speclang.fullgame import SpecReader

RULE_KEYS = ("id", "text", "use", "with", "for", "status", "note", "change", "add", "remove")
RULE_OVERLAY_KEYS = ("remove", "add", "change")  # a rule may carry the static changes that enforce it
STATUSES = ("enforced", "partial", "notes")
_RANGE = re.compile(r"\A(-?\d{1,18})\.\.(-?\d{1,18})\Z")  # longer numbers are no range (and no int)
MAX_LOOP_ITERATIONS = 10_000


class BudgetSpent(Exception):
    """The build's budget ran out in a parameter's expression: reported (TG066) at the expression's
    own line rather than the rule's."""

    def __init__(self, message: str, position: Position):
        super().__init__(message)
        self.position = position


def expand_rules(data, game: m.Game, source: str, spec_dir: Path, collector: Collector,
                 macro_dirs: Sequence[Path] = (), pos: Position | None = None) -> list[RuleRecord]:
    """pos: where `rules:` is, for a value that is no list (a scalar carries no position of its own)."""
    r = SpecReader(source, collector)
    rules = r.sequence(data, "rules", r.pos(data, pos))
    if not rules:
        return []
    user_dirs = [d for d in macro_dirs if d.is_dir()] or ([spec_dir / "macros"]
                                                         if (spec_dir / "macros").is_dir() else [])
    macros = load_macros(user_dirs, lambda error: r.error("TG067", error.message, error.position, error.hint))
    reuse = _Reuse(rendermemo.begin(source), rendermemo.template_stamp([RULES_DIR, *user_dirs])) \
        if sections.is_warm() else None
    with build_budget():
        records = _expand_all(r, rules, game, macros, reuse)
    if reuse is not None:
        rendermemo.finish(reuse.memo)
    if game.attachments:
        game.attachments = order_attachments(game.attachments)
    return records


class _Reuse(NamedTuple):
    """A warm rebuild's kept renders (generator.rules.rendermemo) and the stamp of the macro files."""

    memo: rendermemo._Memo
    stamp: tuple


def _expand_all(r: SpecReader, rules, game: m.Game, macros: dict[str, Macro],
                reuse: _Reuse | None = None) -> list[RuleRecord]:
    index = NameIndex(game)
    records: list[RuleRecord] = []
    seen: dict[str, Position] = {}
    for position, body in enumerate(rules):
        pos = r.pos(body, rules.position_of(position))
        if not isinstance(body, dict):
            r.error("TG060", "each rule must be a mapping with id, text and use (or status: notes)", pos,
                    "write - {id: R1, text: ..., use: macro_name, with: {...}}")
            continue
        rule_id = body.get("id")
        if rule_id is not None and str(rule_id) in seen:
            r.error("TG060", f"rule id '{rule_id}' is used twice (first at line {seen[str(rule_id)].line})", pos,
                    "give every rule its own id")
        seen.setdefault(str(rule_id), pos)
        try:
            record = _expand_rule(r, body, pos, game, macros, index, reuse)
        except (SandboxLimit, MemoryError, BudgetSpent) as err:
            # the build's budget is spent: the rules after this one would only fail the same way
            r.error("TG066", f"rule {body.get('id')}: {str(err) or 'templates ran out of memory'}",
                    err.position if isinstance(err, BudgetSpent) else pos,
                    "a spec's expressions and macros are bounded in size and time; loop over fewer values or "
                    "simplify the expression")
            break
        if record is not None:
            records.append(record)
    return records


def _expand_rule(r: SpecReader, body, pos: Position, game: m.Game, macros: dict[str, Macro],
                 index: NameIndex, reuse: _Reuse | None = None) -> RuleRecord | None:
    # A misspelt key (wiht:) is the cause; what is then missing (the macro's parameters, the
    # rule's text) only follows from it and is not reported.
    misspelt = r.check_keys(body, RULE_KEYS, "a rule")
    at = body.position_of
    rule_id = r.text(body.get("id"), "rule id", pos, required="id" not in misspelt) or ""
    text = r.text(body.get("text"), f"text of rule {rule_id}", pos, required="text" not in misspelt) or ""
    note = r.text(body.get("note"), f"note of rule {rule_id}", at("note")) or ""
    macro_name = r.text(body.get("use"), f"macro of rule {rule_id}", at("use"))
    status = r.text(body.get("status"), f"status of rule {rule_id}", at("status"))
    if status is not None and status not in STATUSES:
        r.error("TG060", f"status of rule {rule_id} must be one of {', '.join(STATUSES)}, not '{status}'",
                at("status"), closest(status, STATUSES) or "enforced: the engine enforces it; partial: in part; "
                "notes: only listed in the game notes")
        return None
    changes = [key for key in RULE_OVERLAY_KEYS if key in body]
    if changes:
        _apply_rule_changes(r, body, game, index)
    if macro_name is None and "use" in misspelt:
        return None
    if macro_name is None:
        if changes:
            record = RuleRecord(rule_id, text, status or "enforced", None, note, pos)
            record.generated += [f"{key}: ({body.position_of(key).line})" for key in changes]
            _warn_notes_that_enforce(r, record, at("status"), ", ".join(f"{key}:" for key in changes))
            return record
        if status != "notes":
            r.error("TG060", f"rule {rule_id} has no 'use:' macro", pos,
                    "name a macro with use:, give the rule its own change:/add:/remove:, or write status: notes "
                    "for a rule the engine cannot enforce")
            return None
        return RuleRecord(rule_id, text, "notes", None, note, pos)
    macro = macros.get(macro_name)
    if macro is None:
        r.error("TG061", f"unknown macro '{macro_name}'", at("use"),
                closest(macro_name, macros) or f"macros: {', '.join(sorted(macros))}")
        return None
    record = RuleRecord(rule_id, text, status or macro.status, macro.name, note, pos)
    if macro.note:
        record.details.append(macro.note)
    if misspelt & {"with", "for"}:
        return record
    for loop_vars in _iterations(r, body.get("for"), at("for")):
        values = _parameters(r, macro, body.get("with"), at("with"), loop_vars, index, rule_id)
        if values is None:
            return record
        key = _rule_key(rule_id, loop_vars)
        rendered = _render(r, macro, values, key, rule_id, game, pos, reuse)
        if rendered is not None:
            text_xml, tree = rendered
            record.fragments.append(text_xml)
            record.generated += merge_fragment(r, tree, game, pos, index, record.details)
    if record.generated:
        _warn_notes_that_enforce(r, record, at("status"), f"macro '{macro.name}'")
    return record


def _warn_notes_that_enforce(r: SpecReader, record: RuleRecord, pos: Position, what: str) -> None:
    """A rule marked `status: notes` whose own changes or macro change the game: the engine enforces
    them, yet the game notes and the forum post tell players to keep the rule by honour."""
    if record.status == "notes":
        r.collector.warning(
            "TG220", f"rule {record.id} says status: notes, but its {what} changes the game: the engine enforces "
            "it, while the game notes say \"NOT ENFORCED: play by honour\"", pos,
            "leave out status: (a rule with its own changes is enforced), or write status: partial with a note: "
            "saying what the players must still keep by honour")


def _apply_rule_changes(r: SpecReader, body, game: m.Game, index: NameIndex) -> None:
    """A rule's own remove:/add:/change:, in the mod's order, so the rule records what enforces it."""
    apply_changes(r, game, {key: body[key] for key in RULE_OVERLAY_KEYS if key in body}, body.position_of)
    index.add_game(game)


def _iterations(r: SpecReader, data, pos: Position) -> list[dict]:
    if data is None:
        return [{}]
    loops = r.mapping(data, "for", pos)
    if loops is None:
        return []
    axes = []
    for name, values in loops.items():
        vpos = loops.position_of(name)
        ranged = _RANGE.match(values) if isinstance(values, str) else None
        if ranged is not None:
            low, high = map(int, ranged.groups())
            if high - low >= MAX_LOOP_ITERATIONS:  # before a list of them is made
                r.error("TG065", f"loop '{name}' has {high - low + 1} values, more than the {MAX_LOOP_ITERATIONS} "
                        "rules a loop may expand to", vpos, "loop over a shorter range")
                return []
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
        return {_substitute(k, loop_vars): _substitute(v, loop_vars) for k, v in value.items()}
    if not isinstance(value, str) or "{{" not in value:
        return value
    text = _expression(value).render(**loop_vars)
    return int(text) if re.fullmatch(r"-?\d+", text) else text


@lru_cache(maxsize=512)
def _expression(text: str) -> jinja2.Template:
    # Compiled once: a loop renders the same expressions for every value.
    return text_environment().from_string(text)


def _parameters(r: SpecReader, macro: Macro, data, pos: Position, loop_vars: dict, index: NameIndex,
                rule_id: str) -> dict | None:
    given = r.mapping(data, f"with of rule {rule_id}", pos)
    if given is None:
        return None
    values, ok, misspelt = {}, True, set()
    for name in given:
        if name not in macro.params:
            meant = closest_name(str(name), macro.params)
            r.error("TG062", f"macro '{macro.name}' has no parameter '{name}'", given.position_of(name),
                    f"did you mean '{meant}'?" if meant else f"its parameters: {', '.join(macro.params) or 'none'}")
            misspelt.add(meant)
            ok = False
    for name, param in macro.params.items():
        if name not in given:
            if param.required:
                if name not in misspelt:  # a misspelt parameter is reported once, above
                    r.error("TG062", f"macro '{macro.name}' needs parameter '{name}' ({param.type})", pos,
                            param.doc or f"add {name}: under with:")
                ok = False
            else:
                values[name] = param.default
            continue
        ppos = given.position_of(name)
        try:
            raw = _substitute(given[name], loop_vars)
        except (SandboxLimit, MemoryError) as err:
            raise BudgetSpent(str(err) or "templates ran out of memory", ppos) from err
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
    return identifier("_".join([rule_id, *map(str, loop_vars.values())]))


def _side(values: dict, helpers: GameHelpers) -> list[str] | None:
    """Whose ownership counts for allied_owns: the owners (or the rule's player) and every player
    sharing an alliance with them; None when the rule names no player."""
    owners = values.get("owner") or ([values["player"]] if isinstance(values.get("player"), str) else [])
    if not owners:
        return None
    side = list(owners)
    for owner in owners:
        side += [ally for ally in helpers.allies(owner) if ally not in side]
    return side


def _render(r: SpecReader, macro: Macro, values: dict, key: str, rule_id: str, game: m.Game,
            pos: Position, reuse: _Reuse | None = None) -> tuple[str, etree._ElementTree] | None:
    helpers = GameHelpers(game)
    side = _side(values, helpers) if macro.takes_conditions else None
    memo_key = None
    if reuse is not None:
        memo_key = rendermemo.render_key(reuse.stamp, macro.path, values, key, rule_id, side)
        kept = rendermemo.reuse(reuse.memo, memo_key, helpers) if memo_key is not None else None
        if kept is not None:
            return kept
    recorder = rendermemo.RecordingHelpers(helpers) if memo_key is not None else None
    spent = rendermemo.Spent()
    env = macro_environment(macro.path.parent)
    context = dict(values, key=key, rule_id=rule_id, game=recorder or helpers)
    if macro.takes_conditions:
        context["condition"] = Conditions.from_params(values, side)
    try:
        text = env.get_template(macro.path.name).render(**context)
    except (SandboxLimit, MemoryError):
        raise
    except MacroError as err:  # it loads a file it may not (a link, a name outside its folder), or a broken one
        r.error("TG067", f"macro '{macro.name}': {err}", pos, err.hint or f"check the macro template {macro.path.name}")
        return None
    except LookupError as err:
        message = err.args[0] if err.args else str(err)
        r.error("TG063", f"macro '{macro.name}': {message}", pos,
                f"check the rule against the game and the macro's parameters (documented in {macro.path.name})")
        return None
    except Exception as err:  # errors inside a (possibly user-written) template
        r.error("TG063", f"macro '{macro.name}' failed: {type(err).__name__}: {err}", pos,
                f"check the macro template {macro.path.name}")
        return None
    try:
        tree = parse_xml_bytes(text.encode("utf-8"), f"macro {macro.name}", root_tag="fragment")
    except DiagnosticError as err:
        for d in err.diagnostics:
            r.error("TG063", f"macro '{macro.name}' rendered bad XML: {d.message} (line {d.position.line})", pos,
                    f"check the macro template {macro.path.name}")
        return None
    text_xml = _pretty(tree)
    if reuse is not None and recorder is not None and memo_key is not None:
        rendermemo.keep(reuse.memo, memo_key, recorder, spent, text_xml, tree)
    return text_xml, tree


def _pretty(tree: etree._ElementTree) -> str:
    """The fragment laid out the same way whatever the template's whitespace (for golden files)."""
    for element in tree.getroot().iter():
        if element.text is not None and not element.text.strip():
            element.text = None
        if element.tail is not None and not element.tail.strip():
            element.tail = None
    etree.indent(tree, space="  ")
    return etree.tostring(tree, encoding="unicode") + "\n"
