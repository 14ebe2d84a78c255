"""What rule macro templates can ask about the game (`game.<method>`); the standard condition
parameters are generator/rules/conditions.py.

Templates render in a sandbox that only lets them call public methods; a method
that cannot answer raises LookupError, which is reported at the rule's YAML line."""
from __future__ import annotations

from typing import NamedTuple

from generator.model import game as m
from generator.model.fields import yaml_items
from generator.rules.steps import (PARTNER_PROPERTIES, TurnBlock, combine_turns, phase_of, reorder_turns,
                                   split_sequence, step_prefix, turn_of)
from generator.speclang.overlay import effective_attachment

_split_sequence = split_sequence  # the name tests/rules/test_rules.py knows


class Window(NamedTuple):
    """The steps a purchase window inserts after anchor, a step of another player's turn."""

    anchor: str
    purchase: str
    place: str


def whole_number(text: str | None) -> int:
    """text as a whole number the way templates read one (Jinja's int filter): a decimal is cut, anything
    else (no value too) is 0."""
    if text is None:
        return 0
    try:
        return int(text)
    except ValueError:
        try:
            return int(float(text))
        except (ValueError, OverflowError):
            return 0


class GameHelpers:
    """Look-ups a macro template may call on the game being built (as `game.<method>`)."""

    def __init__(self, game: m.Game):
        self._game = game

    # --- failing with a message -------------------------------------------------------------------------------

    def fail(self, message: str):
        raise LookupError(message)

    # --- players --------------------------------------------------------------------------------------------------

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self._game.players)

    def players_except(self, *names: str) -> list[str]:
        return [p.name for p in self._game.players if p.name not in names]

    def allies(self, player: str) -> list[str]:
        """Players who share an alliance with player (player excluded)."""
        mine = {a.alliance for a in self._game.alliances if a.player == player}
        return [p.name for p in self._game.players if p.name != player and any(
            a.player == p.name and a.alliance in mine for a in self._game.alliances)]

    def enemies(self, player: str) -> list[str]:
        """Players who share no alliance with player."""
        friends = set(self.allies(player))
        return [p.name for p in self._game.players if p.name not in friends and p.name != player]

    def alliances_of(self, player: str) -> list[str]:
        return [a.alliance for a in self._game.alliances if a.player == player]

    def relationship(self, first: str, second: str) -> str:
        """The initial relationship type between two players, or '' when the game sets none."""
        for rel in (self._game.initialize.relationships or []) if self._game.initialize else []:
            if {rel.player1, rel.player2} == {first, second}:
                return rel.type
        return ""

    def ally_relationship(self, player: str) -> str:
        """The relationship type player has with its allies (e.g. Allied), or '' when none is set."""
        for ally in self.allies(player):
            if self.relationship(player, ally):
                return self.relationship(player, ally)
        return ""

    def is_relationship_type(self, name: str) -> bool:
        return any(t.name == name for t in self._game.relationship_types or [])

    def declaration_changes(self, player: str, targets: list[str], to: str, also: list[str]) -> list[str]:
        """A political action's relationship changes in a trigger's form (P1:P2:any:TYPE): an action
        names PLAYER:TARGET:TYPE, a trigger also the type it replaces (any: whatever it is)."""
        changes = [f"{player}:{target}:any:{to}" for target in targets]
        for change in also:
            parts = change.split(":")
            if len(parts) != 3 or not all(parts):
                raise LookupError(f"also: '{change}' is not PLAYER1:PLAYER2:TYPE")
            changes.append(f"{parts[0]}:{parts[1]}:any:{parts[2]}")
        return changes

    def declaration_results(self, player: str, targets: list[str], to: str, also: list[str]) -> list[str]:
        """The relationships a political action leaves (P1:P2:TYPE), which an automatic declaration
        tests to fire only while one of them is still missing."""
        return [f"{player}:{target}:{to}" for target in targets] + list(also)

    def check_switch_option(self, name: str) -> str:
        """name, when the game declares it as a boolean game option (a property with a true/false value)."""
        value = self._game.property_value(name)
        if value is None:
            raise LookupError(f"the game has no option '{name}': declare it under add: properties: "
                              f"({name}: {{value: true, editable: true, type: boolean}})")
        if value.lower() not in ("true", "false"):
            raise LookupError(f"the game option '{name}' is '{value}', not true or false")
        return name

    def pair_results(self, first: list[str], second: list[str], to: str) -> list[str]:
        """The relationships (P1:P2:TYPE) a relationship_change leaves: every player of first with
        every other player of second."""
        return [f"{one}:{other}:{to}" for one in first for other in second if other != one]

    def has_relationships(self) -> bool:
        return bool(self._game.initialize and self._game.initialize.relationships)

    def checked_relationship_changes(self, changes: list[str]) -> list[str]:
        """changes, each PLAYER1:PLAYER2:OLD:NEW between players of the game into a type it declares (OLD may
        be any); an error for the first that is not."""
        for change in changes:
            parts = change.split(":")
            if len(parts) != 4:
                raise LookupError(f"a relationship change is PLAYER1:PLAYER2:OLD:NEW, not '{change}'")
            for player in parts[:2]:
                if not self.has_player(player):
                    raise LookupError(f"relationship change {change}: the game has no player '{player}'")
            if not self.is_relationship_type(parts[3]):
                raise LookupError(f"relationship change {change}: the game has no relationship type '{parts[3]}'")
        return list(changes)

    def side(self, players: list[str], with_allies: bool = True) -> list[str]:
        """players, then (with_allies) the allies of the first of them, each once in that order."""
        side = list(dict.fromkeys(players))
        if with_allies and players:
            side += [ally for ally in self.allies(players[0]) if ally not in side]
        return side

    def opponents(self, side: list[str], attackers: list[str]) -> list[str]:
        """The attackers and their allies who are not of side, each once, attacker by attacker."""
        found: list[str] = []
        for attacker in attackers:
            found += [p for p in [attacker, *self.allies(attacker)] if p not in side and p not in found]
        return found

    # --- territories -----------------------------------------------------------------------------------------------

    def capital(self, player: str) -> str:
        capitals = self.capitals(player)
        if not capitals:
            raise LookupError(f"the game has no capital for {player}")
        return capitals[0]

    def capitals(self, player: str) -> list[str]:
        return [a.attach_to for a in self._game.attachments or [] if a.class_name == "TerritoryAttachment"
                and any(o.name == "capital" and o.value == player for o in a.options)]

    def owner(self, territory: str) -> str:
        """The territory's initial owner, or '' (neutral)."""
        for owner in (self._game.initialize.owners or []) if self._game.initialize else []:
            if owner.territory == territory:
                return owner.owner
        return ""

    def territories_of(self, player: str) -> list[str]:
        return [o.territory for o in (self._game.initialize.owners or []) if o.owner == player] \
            if self._game.initialize else []

    def territories_of_players(self, players: list[str]) -> list[str]:
        """The territories each of the players owns at the start, player by player."""
        return [territory for player in players for territory in self.territories_of(player)]

    def held_places(self, capitals_of: list[str], territories: list[str]) -> list[str]:
        """The capital of each of capitals_of, then the territories, each once in that order."""
        return list(dict.fromkeys([self.capital(player) for player in capitals_of] + list(territories)))

    def territory_effects(self, territory: str) -> list[str]:
        """The territory effects the territory's territoryAttachment already lists (a rule adding one keeps them)."""
        current = self.attachment("territoryAttachment", territory)
        return [effect for o in (current.options if current else []) if o.name == "territoryEffect" and o.value
                for effect in o.value.split(":")]

    def paying_territories(self, territories: list[str], amount: int) -> list[tuple[str, int]]:
        """(territory, what it pays) of each territory worth something: amount, or when amount is 0 its
        production value (the territoryAttachment's last production option)."""
        paying = []
        for territory in territories:
            value = amount
            if not amount:
                attachment = self.attachment("territoryAttachment", territory)
                for option in attachment.options if attachment else []:
                    if option.name == "production":
                        value = whole_number(option.value)
            if value:
                paying.append((territory, value))
        return paying

    def forbidden_territories(self, player: str, territories: list[str]) -> list[str]:
        """The territories the player's rulesAttachment already forbids it to move into, then the other ones
        of territories. A player with a list of allowed territories instead cannot take forbidden ones."""
        rules = self.attachment("rulesAttachment", player)
        current: list[str] = []
        kind: str | None = ""
        for option in rules.options if rules else []:
            if option.name == "movementRestrictionTerritories" and option.value:
                current = option.value.split(":")
            if option.name == "movementRestrictionType":
                kind = option.value
        if kind == "allowed":
            raise LookupError(f"{player} already has a list of allowed territories; a list of forbidden ones "
                              "cannot be added to it")
        return current + [t for t in territories if t not in current]

    def is_water(self, territory: str) -> bool:
        return any(t.name == territory and t.water == "true" for t in self._game.territories)

    def units_in(self, territory: str, player: str) -> dict[str, int]:
        """The player's initial units in the territory, by type, in the order the game lists them."""
        units: dict[str, int] = {}
        for placement in (self._game.initialize.units or []) if self._game.initialize else []:
            if placement.territory == territory and placement.owner == player:
                units[placement.unit_type] = units.get(placement.unit_type, 0) + int(placement.quantity or 0)
        return {unit: count for unit, count in units.items() if count > 0}

    # --- attachments and production ------------------------------------------------------------------------------

    def unit_is(self, unit: str, option: str) -> bool:
        """Whether the unit type's unitAttachment sets a true/false option to true."""
        attachment = self.attachment("unitAttachment", unit)
        return attachment is not None and any(o.name == option and o.value == "true" for o in attachment.options)

    def attachment(self, name: str, attach_to: str):
        """The attachment the engine uses (the later one where a game declares two)."""
        return effective_attachment(self._game, name, attach_to)

    def values_to_restore(self, units: list[str], option: str) -> dict[str, str | None]:
        """Each unit type's value of the option in its unitAttachment (the first where it is set twice),
        which a rule changing it restores afterwards; an error for a unit type that does not set it."""
        values = {}
        for unit in units:
            attachment = self.attachment("unitAttachment", unit)
            found = [o for o in (attachment.options if attachment else []) if o.name == option]
            if not found:
                raise LookupError(f"{unit}'s unitAttachment sets no {option} to restore afterwards")
            values[unit] = found[0].value
        return values

    def without_build_limit(self, units: list[str]) -> list[str]:
        """The unit types whose unitAttachment sets no maxBuiltPerPlayer of 0 or more (the first one counts)."""
        unlimited = []
        for unit in units:
            attachment = self.attachment("unitAttachment", unit)
            limit = [o for o in (attachment.options if attachment else []) if o.name == "maxBuiltPerPlayer"]
            if not limit or whole_number(limit[0].value) < 0:
                unlimited.append(unit)
        return unlimited

    def convertible_units(self, territory: str, player: str, unit_types: list[str], every_type: bool) -> list[str]:
        """The unit types whose units in the territory change owner with it: unit_types, or the player's units
        there at the start; every_type: also every unit type a production rule sells for PUs."""
        types = list(unit_types) or list(self.units_in(territory, player))
        return types + ([u for u in self.units_costing("PUs") if u not in types] if every_type else [])

    def placement_territories(self, unit: str, zones: dict, allowed: list[str]) -> list[str]:
        """Where a unit type confined to the zones `allowed` may be placed: their territories, in
        order, within the unitPlacementOnlyAllowedIn the unit type already has (if any)."""
        names = list(dict.fromkeys(t for zone in allowed for t in zones[zone]))
        current = self.attachment("unitAttachment", unit)
        for option in (current.options if current else []):
            if option.name == "unitPlacementOnlyAllowedIn" and option.value:
                kept = set(option.value.split(":"))
                names = [t for t in names if t in kept]
        return names

    def frontier_of(self, player: str) -> str:
        production = self._game.production
        return next((p.frontier for p in production.player_production if p.player == player), "") \
            if production else ""

    def frontier_rules(self, frontier: str) -> list[m.ProductionRule]:
        """The production rules a frontier lists, in its order (a copy may be priced differently)."""
        production = self._game.production
        if not production:
            return []
        rules = {rule.name: rule for rule in production.rules}
        names = next((f.rules for f in production.frontiers if f.name == frontier), None)
        if names is None:
            raise LookupError(f"no production frontier named '{frontier}'")
        return [rules[name] for name in names if name in rules]

    def player_option(self, player: str, option: str, default: str, attachment: str = "playerAttachment") -> str:
        """The value the player's attachment (playerAttachment, rulesAttachment ...) gives an option, or
        the engine's default."""
        found = self.attachment(attachment, player)
        return next((o.value for o in (found.options if found else []) if o.name == option), default)

    def capitals_kept(self, player: str) -> str:
        """How many capitals the player must hold to buy (retainCapitalProduceNumber): its playerAttachment's, else
        the engine's default once the player has a playerAttachment, 1, which a player without any capital
        never meets, so it keeps 0."""
        return self.player_option(player, "retainCapitalProduceNumber", "1" if self.capitals(player) else "0")

    def units_costing(self, resource: str) -> list[str]:
        """The unit types that a production rule sells for (among others) the resource, in rule order."""
        unit_types = {u.name for u in self._game.units or []}
        units: list[str] = []
        for rule in self._game.production.rules if self._game.production else []:
            if any(cost.item == resource for cost in rule.costs):
                units += [r.item for r in rule.results if r.item not in units and r.item in unit_types]
        return units

    def repair_frontier_of(self, player: str) -> str:
        production = self._game.production
        return next((p.frontier for p in production.player_repair if p.player == player), "") \
            if production else ""

    def tech_categories(self, player: str) -> list[m.TechCategory]:
        technology = self._game.technology
        return next((p.categories for p in technology.player_techs if p.player == player), []) \
            if technology else []

    # --- the turn sequence -------------------------------------------------------------------------------------------

    def phase_step(self, player: str, phase: str) -> str:
        """The name of the player's first step of a phase (Purchase, Politics, Battle, EndTurn, ...)."""
        for step in self._game.steps or []:
            if step.player == player and step.max_run_count is None and phase_of(step.name) == phase:
                return step.name
        raise LookupError(f"the game has no {phase} step for {player}")

    def turn_prefix(self, player: str, phase: str = "EndTurn") -> str:
        """The step-name prefix of the player's turn ("germans" of germansEndTurn): its first step of
        the phase without the phase's name. Step names a macro adds start with it."""
        name = self.phase_step(player, phase)
        return name[:len(name) - len(phase)]

    def turn_steps(self) -> list[m.Step]:
        """Every step of the players' turns, in order (set-up and end-of-round steps left out)."""
        return [step for block in self.turn_blocks() for step in block.steps]

    def turn_step_names(self) -> list[str]:
        """The names of turn_steps()."""
        return [step.name for step in self.turn_steps()]

    def host_of(self, step: str) -> str:
        """The player whose step of the players' turns it is ("" when no such step has a player)."""
        return next((s.player or "" for s in reversed(self.turn_steps()) if s.name == step), "")

    def has_phase(self, player: str, phase: str) -> bool:
        try:
            self.phase_step(player, phase)
        except LookupError:
            return False
        return True

    def steps_of(self, player: str) -> list[str]:
        return [s.name for s in self._game.steps or [] if s.player == player]

    def players_with_phase(self, phase: str) -> list[str]:
        return [p.name for p in self._game.players if self.has_phase(p.name, phase)]

    def with_phase(self, players: list[str], phase: str) -> list[str]:
        """Those of the players that have a step of the phase, in their order."""
        return [p for p in players if self.has_phase(p, phase)]

    def phase_steps(self, players: list[str], phase: str) -> list[str]:
        """The phase's step of each of the players that has one."""
        return [self.phase_step(p, phase) for p in players if self.has_phase(p, phase)]

    def guest_stem(self, player: str, name: str, host: str, phase: str = "EndTurn") -> str:
        """The start of the name of a step of the player's inside host's turn: the player's turn prefix, name,
        and host's turn prefix with a capital ("italians" + "Choice" + "Germans"), both prefixes of the phase."""
        word = self.turn_prefix(host, phase)
        return self.turn_prefix(player, phase) + name + word[:1].upper() + word[1:]

    def window_steps(self, player: str, name: str, anchors: list[str]) -> list[Window]:
        """The purchase and place steps of the player's to insert after each anchor step, a step of another
        player's turn (purchase_window)."""
        windows = []
        for anchor in anchors:
            host = self.host_of(anchor)
            if not host or host == player:
                raise LookupError(f"{anchor} is not a step of another player's turn")
            stem = self.guest_stem(player, name, host)
            windows.append(Window(anchor, stem + "Purchase", stem + "Place"))
        return windows

    def own_purchase_and_place(self, player: str) -> tuple[m.Step, m.Step]:
        """The player's purchase step of its own turn (found from its end-turn step: a step it has inside
        another turn is no part of it) and the first place step after it."""
        prefix = self.turn_prefix(player, "EndTurn")
        purchase = place = None
        for step in self.turn_steps():
            if step.player != player:
                continue
            if step.name == prefix + "Purchase":
                purchase = step
            if purchase is not None and place is None and step.name.endswith("Place"):
                place = step
        if purchase is None or place is None:
            raise LookupError(f"{player} has no {prefix}Purchase step followed by a place step to copy")
        return purchase, place

    def turn_blocks(self) -> list[TurnBlock]:
        return split_sequence(self._game.steps or [])[1]

    def turn_of(self, player: str) -> TurnBlock:
        return turn_of(self.turn_blocks(), player)

    def new_turn_anchor(self, template: str, before: str, after: str) -> str:
        """The step a new player's turn goes next to: the first step of before's turn (it goes before it),
        else the last of after's turn, by default the template player's (it goes after it)."""
        if before:
            return self.turn_of(before).steps[0].name
        return self.turn_of(after or template).steps[-1].name

    def reordered_steps(self, order: list[str]) -> list[m.Step]:
        """The whole sequence with the players' turns in the given order; set-up steps stay first and
        end-of-round steps last."""
        return reorder_turns(self._game.steps or [], order)

    def combined_turns(self, groups: dict[str, list[str]]) -> list[m.Step]:
        """The whole sequence with each group's turns merged into one turn led by the group's
        leader (the combined_turns macro): see generator.rules.steps.combine_turns."""
        return combine_turns(self._game.steps or [], groups)

    def copied_turn(self, template: str, player: str, prefix: str) -> list[dict]:
        """The template player's own steps renamed for player (prefix replaces the template's)."""
        steps = [s for s in self.turn_of(template).steps if s.player == template]
        old_prefix = step_prefix([s.name for s in steps])
        names = {s.name for s in self._game.steps or []}
        copied = []
        for step in steps:
            name = prefix + step.name[len(old_prefix):]
            if name in names:
                raise LookupError(f"the game already has a step named '{name}'; choose another step prefix")
            copied.append({**dict(yaml_items(step)), "name": name, "player": player,
                           "properties": [(p.name, p.value) for p in step.properties
                                          if p.name not in PARTNER_PROPERTIES]})
        return copied
