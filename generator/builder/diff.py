"""A changelog in game terms between two versions of a game (YAML specs or game
XMLs, in any mix): "cruiser cost 12 → 11", "Urals production 1 → 2", "new player
Canada", not an XML line diff."""
from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

from generator.model import game as m
from generator.model.compare import SECTION_BY_NAME, match_section_lists

SECTIONS = ("game", "players", "map", "units", "production", "technology", "turn order", "rules and triggers",
            "setup", "properties")


@dataclass(frozen=True)
class Change:
    section: str
    text: str
    kind: str  # added | removed | changed


def load_game_any(path: str | os.PathLike) -> m.Game:
    """A game from a spec (built in memory) or a game XML."""
    path = Path(path)
    if path.suffix in (".yaml", ".yml"):
        from generator.builder.compiler import compile_spec

        return compile_spec(path).game  # with rules expanded and notes added, as the build writes it
    from generator.read.importer import import_xml_file

    game, _ = import_xml_file(path)
    return game


def _arrow(old, new) -> str:
    return f"{_show(old)} → {_show(new)}"


def _show(value) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, (list, tuple)):
        return ", ".join(_show(v) for v in value) if value else "(none)"
    return str(value)


class _Diff:
    def __init__(self):
        self.changes: list[Change] = []

    def add(self, section: str, kind: str, text: str) -> None:
        self.changes.append(Change(section, text, kind))

    def named(self, section: str, what: str, old: list[str], new: list[str]) -> None:
        old_set, new_set = set(old), set(new)
        for name in new:
            if name not in old_set:
                self.add(section, "added", f"new {what} {name}")
        for name in old:
            if name not in new_set:
                self.add(section, "removed", f"{what} {name} removed")


def diff_games(old: m.Game, new: m.Game) -> list[Change]:
    d = _Diff()
    for label, a, b in (("name", old.info.name, new.info.name), ("version", old.info.version, new.info.version)):
        if a != b:
            d.add("game", "changed", f"game {label} {_arrow(a, b)}")
    d.named("players", "player", [p.name for p in old.players], [p.name for p in new.players])
    _diff_alliances(d, old, new)
    d.named("map", "territory", [t.name for t in old.territories], [t.name for t in new.territories])
    old_water = {t.name: t.water for t in old.territories}
    for t in new.territories:
        if t.name in old_water and (old_water[t.name] == "true") != (t.water == "true"):
            d.add("map", "changed", f"{t.name} is now {'a sea zone' if t.water == 'true' else 'land'}")
    old_links = {frozenset((c.t1, c.t2)) for c in old.connections}
    new_links = {frozenset((c.t1, c.t2)) for c in new.connections}
    for link in sorted(new_links - old_links, key=sorted):
        d.add("map", "added", f"new connection {' – '.join(sorted(link))}")
    for link in sorted(old_links - new_links, key=sorted):
        d.add("map", "removed", f"connection {' – '.join(sorted(link))} removed")
    d.named("units", "unit type", [u.name for u in old.units or []], [u.name for u in new.units or []])
    _diff_production(d, old.production or m.Production(), new.production or m.Production())
    _diff_technology(d, old.technology or m.Technology(), new.technology or m.Technology())
    _diff_steps(d, old.steps or [], new.steps or [])
    _diff_attachments(d, old.attachments or [], new.attachments or [])
    _diff_setup(d, old.initialize or m.Initialize(), new.initialize or m.Initialize())
    _diff_properties(d, old.properties or [], new.properties or [])
    order = {section: i for i, section in enumerate(SECTIONS)}
    return sorted(d.changes, key=lambda c: order[c.section])  # stable: keeps the order within a section


def _diff_alliances(d: _Diff, old: m.Game, new: m.Game) -> None:
    old_pairs = {(a.player, a.alliance) for a in old.alliances}
    new_pairs = {(a.player, a.alliance) for a in new.alliances}
    for player, alliance in sorted(new_pairs - old_pairs):
        d.add("players", "added", f"{player} joins {alliance}")
    for player, alliance in sorted(old_pairs - new_pairs):
        d.add("players", "removed", f"{player} leaves {alliance}")


def _rule_label(rule: m.ProductionRule) -> str:
    if len(rule.results) == 1 and rule.results[0].quantity == "1":
        return rule.results[0].item
    return f"rule {rule.name}"


def _amounts(amounts: list[m.Amount]) -> str:
    return " + ".join(f"{a.quantity} {a.item}" for a in amounts) or "(nothing)"


def _single_cost(rule: m.ProductionRule) -> str:
    if len(rule.costs) == 1 and rule.costs[0].item == "PUs":
        return rule.costs[0].quantity or "0"
    return _amounts(rule.costs)


def _diff_production(d: _Diff, old: m.Production, new: m.Production) -> None:
    old_rules = {r.name: r for r in old.rules}
    for rule in new.rules:
        before = old_rules.get(rule.name)
        if before is None:
            d.add("production", "added", f"new production rule {rule.name}: {_amounts(rule.results)} for "
                                         f"{_amounts(rule.costs)}")
            continue
        if [(a.item, a.quantity) for a in before.costs] != [(a.item, a.quantity) for a in rule.costs]:
            d.add("production", "changed", f"{_rule_label(rule)} cost {_single_cost(before)} → {_single_cost(rule)}")
        if [(a.item, a.quantity) for a in before.results] != [(a.item, a.quantity) for a in rule.results]:
            d.add("production", "changed", f"{rule.name} gives {_amounts(before.results)} → {_amounts(rule.results)}")
    new_names = {r.name for r in new.rules}
    for rule in old.rules:
        if rule.name not in new_names:
            d.add("production", "removed", f"production rule {rule.name} removed")
    for label, before_list, after_list in (("frontier", old.frontiers, new.frontiers),
                                           ("repair frontier", old.repair_frontiers, new.repair_frontiers)):
        rules_before = {f.name: f.rules for f in before_list}
        for frontier in after_list:
            if frontier.name not in rules_before:
                d.add("production", "added", f"new {label} {frontier.name}: {_show(frontier.rules)}")
                continue
            added = [r for r in frontier.rules if r not in rules_before[frontier.name]]
            removed = [r for r in rules_before[frontier.name] if r not in frontier.rules]
            if added:
                d.add("production", "added", f"{label} {frontier.name} now offers {_show(added)}")
            if removed:
                d.add("production", "removed", f"{label} {frontier.name} no longer offers {_show(removed)}")
        after_names = {f.name for f in after_list}
        for name in rules_before:
            if name not in after_names:
                d.add("production", "removed", f"{label} {name} removed")
    # its own name: `rules_before` above maps frontiers to rules, and one name for both hid the types
    frontier_of = {p.player: p.frontier for p in old.player_production}
    for entry in new.player_production:
        if frontier_of.get(entry.player) != entry.frontier:
            d.add("production", "changed",
                  f"{entry.player} buys from {_arrow(frontier_of.get(entry.player), entry.frontier)}")


def _diff_technology(d: _Diff, old: m.Technology, new: m.Technology) -> None:
    d.named("technology", "technology", [t.name for t in old.technologies or []],
            [t.name for t in new.technologies or []])
    before = {(p.player, c.name, t) for p in old.player_techs for c in p.categories for t in c.techs}
    after = {(p.player, c.name, t) for p in new.player_techs for c in p.categories for t in c.techs}
    for player, category, tech in sorted(after - before):
        d.add("technology", "added", f"{player} can research {tech} ({category})")
    for player, category, tech in sorted(before - after):
        d.add("technology", "removed", f"{player} can no longer research {tech} ({category})")


def _diff_steps(d: _Diff, old: list[m.Step], new: list[m.Step]) -> None:
    old_names, new_names = [s.name for s in old], [s.name for s in new]
    d.named("turn order", "step", old_names, new_names)
    common_old = [n for n in old_names if n in set(new_names)]
    common_new = [n for n in new_names if n in set(old_names)]
    if common_old != common_new:
        old_players = list(dict.fromkeys(s.player for s in old if s.player and s.name in common_new))
        new_players = list(dict.fromkeys(s.player for s in new if s.player and s.name in common_old))
        if old_players != new_players:
            d.add("turn order", "changed", f"turn order {_show(old_players)} → {_show(new_players)}")
        else:
            d.add("turn order", "changed", "steps reordered within turns")
    before = {s.name: s for s in old}
    for step in new:
        was = before.get(step.name)
        if was is None:
            continue
        for label, a, b in (("delegate", was.delegate, step.delegate), ("player", was.player, step.player),
                            ("maxRunCount", was.max_run_count, step.max_run_count)):
            if a != b:
                d.add("turn order", "changed", f"step {step.name} {label} {_arrow(a, b)}")


_KIND_BY_CLASS = {"TriggerAttachment": "trigger", "RulesAttachment": "condition",
                  "PoliticalActionAttachment": "political action", "UserActionAttachment": "user action"}


def _describe(attachment: m.Attachment) -> str:
    if attachment.class_name == "UnitAttachment":
        return f"unit stats for {attachment.attach_to}"
    if attachment.class_name == "TerritoryAttachment":
        return f"territory values for {attachment.attach_to}"
    if attachment.name.startswith("objectiveAttachment"):
        return f"national objective {attachment.name}"
    kind = _KIND_BY_CLASS.get(attachment.class_name, attachment.class_name)
    return f"{kind} {attachment.name} (on {attachment.attach_to})"


# An option without a value or with an empty one (validate warns; the current engine skips it) is
# still a change to show.
_NO_VALUE = "(no value)"


def _option_values(attachment: m.Attachment) -> dict[str, list[str]]:
    values: dict[str, list[str]] = defaultdict(list)
    for option in attachment.options:
        value = option.value or _NO_VALUE
        values[option.name].append(value if option.count in (None, "") else f"{option.count}:{value}")
    return values


def _diff_attachments(d: _Diff, old: list[m.Attachment], new: list[m.Attachment]) -> None:
    # paired by name, target and occurrence: real games repeat a name on the same target
    matching = match_section_lists(SECTION_BY_NAME["attachments"], old, new)
    for was, attachment in matching.in_new_order:
        section = _section_of(attachment)
        if was is None:
            d.add(section, "added", f"new {_describe(attachment)}" + _stats(attachment))
            continue
        old_values, new_values = _option_values(was), _option_values(attachment)
        for option in list(new_values) + [o for o in old_values if o not in new_values]:
            a, b = old_values.get(option), new_values.get(option)
            if a == b:
                continue
            d.add(section, "changed", _option_change(attachment, option, a, b))
    for attachment in matching.removed:
        d.add(_section_of(attachment), "removed", f"{_describe(attachment)} removed")


def _stats(attachment: m.Attachment) -> str:
    """A new unit's or territory's values, which are what a reader wants to know about it."""
    if attachment.class_name not in ("UnitAttachment", "TerritoryAttachment") or not attachment.options:
        return ""
    return ": " + ", ".join(f"{name} {_show(values if len(values) > 1 else values[0])}"
                            for name, values in _option_values(attachment).items())


def _section_of(attachment: m.Attachment) -> str:
    return {"UnitAttachment": "units", "TerritoryAttachment": "map"}.get(attachment.class_name,
                                                                          "rules and triggers")


def _option_change(attachment: m.Attachment, option: str, old: list[str] | None, new: list[str] | None) -> str:
    if attachment.class_name in ("UnitAttachment", "TerritoryAttachment"):
        subject = attachment.attach_to
    else:
        subject = _describe(attachment)
    if option == "when" and new is not None and attachment.class_name == "TriggerAttachment":
        return f"trigger {attachment.name} now fires {' and '.join(w.replace(':', ' ', 1) for w in new)}" + (
            f" (was {' and '.join(w.replace(':', ' ', 1) for w in old)})" if old else "")
    if old is None:
        return f"{subject} {option}: new {_show(new)}"
    if new is None:
        return f"{subject} {option} removed (was {_show(old)})"
    return f"{subject} {option} {_arrow(old if len(old) > 1 else old[0], new if len(new) > 1 else new[0])}"


def _diff_setup(d: _Diff, old: m.Initialize, new: m.Initialize) -> None:
    before = {o.territory: o.owner for o in old.owners or []}
    after = {o.territory: o.owner for o in new.owners or []}
    for territory, owner in after.items():
        if before.get(territory) != owner:
            d.add("setup", "changed", f"{territory} starts owned by {owner}" +
                  (f" (was {before[territory]})" if territory in before else ""))
    for territory in before:
        if territory not in after:
            d.add("setup", "changed", f"{territory} starts unowned (was {before[territory]})")
    units_before = _unit_counts(old.units or [])
    units_after = _unit_counts(new.units or [])
    for key in list(units_after) + [k for k in units_before if k not in units_after]:
        a, b = units_before.get(key, 0), units_after.get(key, 0)
        if a != b:
            territory, owner, unit = key
            d.add("setup", "changed", f"{territory}: {owner or 'neutral'} {unit} {a} → {b}")
    money_before = {(g.player, g.resource): g.quantity for g in old.resources or []}
    for given in new.resources or []:
        was = money_before.get((given.player, given.resource))
        if was != given.quantity:
            d.add("setup", "changed", f"{given.player} start with {given.quantity} {given.resource}" +
                  (f" (was {was})" if was is not None else ""))
    relations_before = {(r.player1, r.player2): r.type for r in old.relationships or []}
    for relation in new.relationships or []:
        was = relations_before.get((relation.player1, relation.player2))
        if was != relation.type:
            d.add("setup", "changed", f"{relation.player1} and {relation.player2} start as {relation.type}" +
                  (f" (was {was})" if was is not None else ""))


def _unit_counts(placements: list[m.UnitPlacement]) -> Counter:
    counts: Counter = Counter()
    for placement in placements:
        try:
            counts[(placement.territory, placement.owner, placement.unit_type)] += int(placement.quantity or 0)
        except ValueError:
            continue
    return counts


def _diff_properties(d: _Diff, old: list[m.Property], new: list[m.Property]) -> None:
    before = {p.name: p for p in old}
    for prop in new:
        was = before.get(prop.name)
        value = prop.value if prop.value is not None else prop.text
        if was is None:
            d.add("properties", "added", f"new property {prop.name} = {_short(value)}")
            continue
        old_value = was.value if was.value is not None else was.text
        if old_value != value:
            d.add("properties", "changed", f"property {prop.name} {_short(old_value)} → {_short(value)}")
    names = {p.name for p in new}
    for name in before:
        if name not in names:
            d.add("properties", "removed", f"property {name} removed")


def _short(value: str | None) -> str:
    if value is None:
        return "(none)"
    value = " ".join(value.split())
    return value if len(value) <= 60 else f"({len(value)} characters of text)"


def format_changes(changes: list[Change], fmt: str, old_label: str, new_label: str) -> str:
    if fmt == "json":
        import json

        return json.dumps({"old": old_label, "new": new_label, "changes": [asdict(c) for c in changes]},
                          indent=2, ensure_ascii=False)
    from generator.core.diagnostics import printable

    shown = markdown_text if fmt == "markdown" else printable  # names come from the files: text, never markup
    lines = []
    if fmt == "markdown":
        lines.append(f"### Changes from {shown(old_label)} to {shown(new_label)}")
    for section in SECTIONS:
        entries = [c for c in changes if c.section == section]
        if not entries:
            continue
        if fmt == "markdown":
            lines += ["", f"**{section.capitalize()}**", ""] + [f"- {shown(c.text)}" for c in entries]
        else:
            lines += [f"{section}:"] + [f"  {shown(c.text)}" for c in entries]
    if not changes:
        lines.append("no changes in game terms")
    return "\n".join(lines)


# The characters that make markup inside a list item's text (links, emphasis, code, tables, strike);
# '_' inside a word (triggerAttachment_Test) makes no emphasis, so names keep their look.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]|~>]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def markdown_text(text: str) -> str:
    """Text that Markdown shows as it is: its markup characters escaped, HTML made inert, and
    everything on one line (a line break in a name would end the list item)."""
    from generator.core.diagnostics import escaped

    text = escaped(text).replace("&", "&amp;").replace("<", "&lt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
