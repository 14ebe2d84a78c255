"""`odds`: the first answer a modder gets, in seconds. For every unit type whose stats the mod
changes (its unitAttachment options differ from the base's), two typical battles, the unit
attacking and the unit defending, each side about 30 PUs of units; plus the battles given with
`--battle`. Each runs in the engine's own battle calculator (1.9's, or 2.x's with `--engine
current`), seeded, on the base and on the mod: win probability and expected losses before and after."""
from __future__ import annotations

import tempfile
from pathlib import Path

from generator.balance.variants import Variant
from generator.core.diagnostics import Diagnostic, DiagnosticError, Position
from generator.read.safexml import parse_xml_bytes

BUDGET_PUS = 30


def unit_stats(variant: Variant) -> dict[str, dict[str, str]]:
    root = parse_xml_bytes(variant.xml, variant.label).getroot()
    stats: dict[str, dict[str, str]] = {}
    for attachment in root.iterfind("attachmentList/attachment"):
        if (attachment.get("javaClass") or "").endswith("UnitAttachment") and attachment.get("type") == "unitType":
            options = stats.setdefault(attachment.get("attachTo"), {})
            for option in attachment.iterfind("option"):
                options[option.get("name")] = option.get("value")
    return stats


def changed_units(mod: Variant, base: Variant) -> dict[str, list[str]]:
    """Unit type -> the options the mod changes, for the types both games have."""
    before, after = unit_stats(base), unit_stats(mod)
    changed = {}
    for unit in sorted(set(before) & set(after)):
        keys = sorted(k for k in set(before[unit]) | set(after[unit]) if before[unit].get(k) != after[unit].get(k))
        if keys:
            changed[unit] = keys
    return changed


def typical_battles(mod: Variant, unit: str, stats: dict[str, str]) -> list[str]:
    """The unit attacking the cheapest unit of its kind of an enemy, and defending against it."""
    root = parse_xml_bytes(mod.xml, mod.label).getroot()
    sea = stats.get("isSea") == "true"
    all_stats = unit_stats(mod)
    kind = [u for u, s in all_stats.items() if (s.get("isSea") == "true") == sea and s.get("isAir") != "true"
            and u in mod.unit_costs and (s.get("attack") or s.get("defense"))]
    if unit not in mod.unit_costs or not kind:
        return []
    foe_unit = min(kind, key=lambda u: (mod.unit_costs[u], u))
    water = {t.get("name"): t.get("water") == "true" for t in root.iterfind("map/territory")}
    place = next((name for name, is_water in water.items() if is_water == sea), None)
    players = mod.players
    owner = next((p for p in players if _buys(root, p, unit)), players[0] if players else None)
    if place is None or owner is None:
        return []
    enemy = next((p for p in players if mod.sides.get(p) != mod.sides.get(owner)), None)
    if enemy is None:
        return []
    ours = max(1, round(BUDGET_PUS / mod.unit_costs[unit]))
    theirs = max(1, round(BUDGET_PUS / mod.unit_costs[foe_unit]))
    return [f"{owner}|{enemy}|{place}|{unit}={ours}|{foe_unit}={theirs}",
            f"{enemy}|{owner}|{place}|{foe_unit}={theirs}|{unit}={ours}"]


def _buys(root, player: str, unit: str) -> bool:
    frontiers = {p.get("name"): p.get("frontier") for p in root.iterfind("production/playerProduction")}
    rules = {r.get("name"): [x.get("resourceOrUnit") for x in r.iterfind("result")]
             for r in root.iterfind("production/productionRule")}
    for frontier in root.iterfind("production/productionFrontier"):
        if frontier.get("name") == frontiers.get(player):
            return any(unit in rules.get(f.get("rule"), []) for f in frontier.iterfind("frontierRules"))
    return False


def measure_odds(mod: Variant, base: Variant, extra: list[str], seed: int = 1, runs: int = 1000,
                 engine: str = "1.9") -> dict:
    from generator.engine.harness import battle_odds

    changed = changed_units(mod, base)
    battles: list[tuple[str, str]] = []
    for unit, keys in changed.items():
        for battle in typical_battles(mod, unit, unit_stats(mod)[unit]):
            battles.append((f"{unit} ({', '.join(keys)} changed)", battle))
    battles += [("given", battle) for battle in extra]
    if not battles:
        raise DiagnosticError([Diagnostic("TG604", "no battle to calculate: the mod changes no unit's stats and no "
                                          "--battle is given", Position(mod.label),
                                          "give --battle ATTACKER|DEFENDER|TERRITORY|UNIT=N,...|UNIT=N,...")],
                              exit_status=2)
    figures = {}
    # safe-write: a private temporary folder of ours for the two game files
    with tempfile.TemporaryDirectory(prefix="triplea-gen-odds-") as folder:
        for variant in (base, mod):
            game = Path(folder) / variant.name / variant.file_name
            game.parent.mkdir()  # safe-write: in our private temporary folder
            game.write_bytes(variant.xml)  # safe-write: in our private temporary folder
            figures[variant.name] = battle_odds(game, [b for _, b in battles], seed=seed, runs=runs, engine=engine)
    rows = []
    for (why, battle), before, after in zip(battles, figures["base"], figures["mod"]):
        rows.append({"why": why, "battle": battle, "base": before, "mod": after})
    return {"seed": seed, "runs": runs, "changed_units": changed, "battles": rows}


def failed_battles(data: dict) -> list[tuple[str, str, str, bool]]:
    """(battle, variant, the calculator's error, whether --battle gave it) for every battle the
    engine answered no figures for."""
    return [(row["battle"], name, row[name]["error"], row["why"] == "given")
            for row in data["battles"] for name in ("base", "mod") if "error" in row[name]]


def odds_lines(data: dict) -> list[str]:
    lines = []
    for row in data["battles"]:
        attacker, defender, place, ours, theirs = row["battle"].split("|")
        lines.append(f"{row['why']}: {attacker} {ours} attack {defender} {theirs} in {place}")
        for name in ("base", "mod"):
            figures = row[name]
            if "error" in figures:
                lines.append(f"  {name}: {figures['error']}")
                continue
            lost_a = _lost(ours, figures["attackers_left"])
            lost_d = _lost(theirs, figures["defenders_left"])
            lines.append(f"  {name:4}: attacker wins {figures['attacker_win'] * 100:5.1f} %, defender "
                         f"{figures['defender_win'] * 100:5.1f} %, draw {figures['draw'] * 100:4.1f} %; expected "
                         f"losses: attacker {lost_a:.2f} units, defender {lost_d:.2f} units")
    return lines


def _lost(units: str, left: dict[str, float]) -> float:
    total = sum(int(item.split("=")[1]) for item in units.split(",") if item)
    return total - sum(left.values())
