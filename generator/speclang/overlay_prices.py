"""`change: players: {PLAYER: {prices: {UNIT: COST}}}`: one player's own price of a unit type, without a
hand copy of a whole production frontier.

    change:
      players:
        Germans: {prices: {infantry: 2, armour: {PUs: 5, Steel: 1}}}

The player's production frontier is derived: when other players share it, a copy named
`<frontier>_<player>` becomes the player's own (placed after the original); in it, each priced unit's rule
(the one `change: units: {UNIT: {cost: N}}` would set) is replaced by a copy `<rule>_<player>` with the
new cost. A frontier the player alone uses is changed in place. Other players keep every price."""
from __future__ import annotations

import copy

from generator.core.diagnostics import Position
from generator.model import game as m
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Raw

PRICE_CODE = "TG221"


def set_player_prices(r: SpecReader, game: m.Game, player: str, data: Raw, pos: Position, known) -> None:
    prices = r.mapping(data, f"prices of {player}", pos)
    if not prices:
        return
    production = game.production = game.production or m.Production()
    current = next((p for p in production.player_production if p.player == player), None)
    if current is None:
        r.error(PRICE_CODE, f"player {player} has no production frontier to set its own prices in", pos,
                f"give it one first: change: players: {{{player}: {{frontier: NAME}}}}")
        return
    frontier = _own_frontier(r, production, current, pos)
    if frontier is None:
        return
    for unit, cost in prices.items():
        upos = prices.position_of(unit)
        unit = str(unit)
        if not known("unit type", unit, [u.name for u in game.units or []], upos):
            continue
        rule = _rule_buying(r, production, frontier, unit, player, upos)
        if rule is None:
            continue
        amounts = cost if isinstance(cost, dict) else {"PUs": cost}
        own = _own_rule(production, frontier, rule, player)
        own.costs = [m.Cost(str(resource), r.text(quantity, f"price of {unit} for {player}", upos), upos)
                     for resource, quantity in amounts.items()]


def _own_frontier(r: SpecReader, production: m.Production, current: m.PlayerFrontier,
                  pos: Position) -> m.Frontier | None:
    frontier = next((f for f in production.frontiers if f.name == current.frontier), None)
    if frontier is None:
        return None  # the frontier itself is unknown: validation reports it at the player's entry
    sharing = [p.player for p in production.player_production if p.frontier == frontier.name]
    if sharing == [current.player]:
        return frontier
    name = f"{frontier.name}_{current.player}"
    if any(f.name == name for f in production.frontiers):
        r.error(PRICE_CODE, f"{current.player}'s own frontier would be called {name}, a frontier the game already "
                f"has and {', '.join(sharing)} share", pos,
                f"make {name} {current.player}'s frontier (change: players: {{{current.player}: {{frontier: {name}}}}})"
                " and give the prices there")
        return None
    own = m.Frontier(name, list(frontier.rules), pos)
    production.frontiers.insert(production.frontiers.index(frontier) + 1, own)
    current.frontier, current.pos = name, pos
    return own


def _rule_buying(r: SpecReader, production: m.Production, frontier: m.Frontier, unit: str, player: str,
                 pos: Position) -> m.ProductionRule | None:
    """The frontier's rule a price replaces: the one buying exactly one such unit (buy<Unit> when several)."""
    in_frontier = [rule for rule in production.rules if rule.name in frontier.rules]
    chosen, buying = rules_priced_by_cost(in_frontier, unit)
    if len(chosen) == 1:
        return chosen[0]
    if buying:
        r.error(PRICE_CODE, f"several rules of {player}'s frontier {frontier.name} buy one '{unit}' and none is "
                f"called buy{unit}", pos, "change the rule you mean under change: production: ("
                + ", ".join(rule.name for rule in buying) + ")")
    else:
        r.error(PRICE_CODE, f"{player}'s production frontier {frontier.name} has no rule buying one '{unit}'", pos,
                f"add the unit to the frontier first (change: frontiers: {{{frontier.name}: {{add: [RULE]}}}})")
    return None


def _own_rule(production: m.Production, frontier: m.Frontier, rule: m.ProductionRule,
              player: str) -> m.ProductionRule:
    """The player's copy of rule, in rule's place in the frontier (rule itself when it is already the copy)."""
    name = f"{rule.name}_{player}"
    if rule.name.endswith(f"_{player}"):
        return rule
    own = next((existing for existing in production.rules if existing.name == name), None)
    if own is None:
        own = copy.deepcopy(rule)
        own.name = name
        production.rules.insert(production.rules.index(rule) + 1, own)
    frontier.rules[frontier.rules.index(rule.name)] = name
    return own


def rules_priced_by_cost(rules: list[m.ProductionRule], unit: str):
    """(the rules `change: units: {UNIT: {cost: N}}` sets, every rule that buys exactly one UNIT)."""
    buying = [rule for rule in rules if [(a.item, a.quantity) for a in rule.results] == [(unit, "1")]]
    # Tech variants such as buyCruiserShipyards keep their own, cheaper price: only the plain rule changes.
    plain = [rule for rule in buying if _normalised(rule.name) == _normalised("buy" + unit)]
    return plain or (buying if len(buying) == 1 else []), buying


def _normalised(name: str) -> str:
    return name.replace("_", "").lower()
