"""The turn sequence as macros see it: steps by phase, the players' turns (blocks), and the
sequence with allied turns merged into one (combined_turns). Pure functions of a list of
steps, so they are tested without a game."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from generator.model import game as m

# Step name endings the engine's user interface recognises, longest first where one ends another.
PHASES = ("TechActivation", "Tech", "BidPlace", "Bid", "Purchase", "Politics", "UserActions",
          "AirborneCombatMove", "NonCombatMove", "CombatMove", "Place", "EndTurn", "Battle")
_TRAILING_PHASES = ("Place", "EndTurn")
# Step properties that name the template player's partners; a copied turn must not inherit them.
PARTNER_PROPERTIES = ("combinedTurns", "turnSummaryPlayers", "repairPlayers")
# The steps of a turn that a combined turn plays once, led by the leader (NonCombatMove ends in CombatMove).
_MOVE_ENDINGS = ("CombatMove", "Battle")


@dataclass
class TurnBlock:
    """One player's turn in the round: its steps, with partners' steps that sit inside it."""

    player: str
    steps: list[m.Step] = field(default_factory=list)


def phase_of(step_name: str) -> str:
    return next((phase for phase in PHASES if step_name.endswith(phase)), "")


def step_prefix(names: list[str]) -> str:
    prefix = os.path.commonprefix(names)
    if prefix in names or len(names) == 1:  # a one-step turn: the prefix is what precedes the phase
        phase = phase_of(prefix)
        prefix = prefix[:len(prefix) - len(phase)] if phase else prefix
    return prefix


def split_sequence(steps: list[m.Step]) -> tuple[list[m.Step], list[TurnBlock], list[m.Step]]:
    """Set-up steps (no player, or run once: bids), the players' turns, end-of-round steps.

    A turn runs from a player's first step to its end-turn step and takes in the steps of partners
    played inside it (G40's UK_Pacific inside the British turn); without end-turn steps each change
    of player starts a turn."""
    first = next((i for i, s in enumerate(steps) if s.player and s.max_run_count is None), len(steps))
    last = max((i for i, s in enumerate(steps) if s.player), default=first - 1)
    head, body, tail = steps[:first], steps[first:last + 1], steps[last + 1:]
    uses_end_turn = any(phase_of(s.name) == "EndTurn" for s in body)
    blocks: list[TurnBlock] = []
    ended = True
    for step in body:
        current = blocks[-1] if blocks else None
        members = {s.player for s in current.steps} if current else set()
        # After the owner's end of turn only a partner's trailing place/end-turn steps stay in it
        # (G40's UK_Pacific); any other step, even of a player who acted inside that turn (a pact's
        # out-of-turn purchase), begins the next turn.
        trailing = phase_of(step.name) in _TRAILING_PHASES
        starts = current is None or (step.player is not None and (ended or not uses_end_turn) and
                                     (step.player not in members or (ended and not trailing)))
        if starts:
            blocks.append(TurnBlock(step.player or ""))
            ended = False
        blocks[-1].steps.append(step)
        if phase_of(step.name) == "EndTurn" and step.player == blocks[-1].player:
            ended = True
    return head, blocks, tail


def turn_of(blocks: list[TurnBlock], player: str) -> TurnBlock:
    for block in blocks:
        if block.player == player:
            return block
    raise LookupError(f"{player} has no turn in the game's sequence")


def reorder_turns(steps: list[m.Step], order: list[str]) -> list[m.Step]:
    """The whole sequence with the players' turns in the given order; set-up steps stay first and
    end-of-round steps last. LookupError when the order is no permutation of the turns."""
    head, blocks, tail = split_sequence(steps)
    by_player = {block.player: block for block in blocks}
    if len(by_player) < len(blocks):
        twice = sorted({b.player for b in blocks if sum(o.player == b.player for o in blocks) > 1})
        raise LookupError(f"{', '.join(twice)} play more than one turn a round; place their steps with "
                          f"change: steps instead")
    missing = [block.player for block in blocks if block.player not in order]
    unknown = [player for player in order if player not in by_player]
    if unknown:
        raise LookupError(f"no turn in the sequence for {', '.join(unknown)}; "
                          f"the turns are: {', '.join(by_player)}")
    if missing:
        raise LookupError(f"the new order leaves out {', '.join(missing)}; list every turn: "
                          f"{', '.join(by_player)}")
    return head + [step for player in order for step in by_player[player].steps] + tail


def combine_turns(steps: list[m.Step], groups: dict[str, list[str]]) -> list[m.Step]:
    """The sequence with each group's turns played as one, where the group's first turn stood: every
    member's steps before its moves (tech, purchase, politics ...), then the leader's moves and
    battle, its combat moves listing every member in stepProperty combinedTurns, then every
    member's steps after its moves (placement, end of turn). The members' own move and battle
    steps are dropped. LookupError for a player in two groups or a turn without moves."""
    sequence = reorder_turns(steps, [block.player for block in split_sequence(steps)[1]])
    blocks = split_sequence(steps)[1]
    covered: set[str] = set()
    for leader, members in groups.items():
        for player in [leader, *members]:
            if player in covered:
                raise LookupError(f"groups: {player} is in more than one group")
            covered.add(player)
    merged: dict[str, list[m.Step]] = {}
    leader_of: dict[str, str] = {}  # step name -> the leader of the turn it now belongs to
    for leader, members in groups.items():
        before, moves, after = [], [], []
        for player in [leader, *members]:
            turn = turn_of(blocks, player).steps
            at_moves = [i for i, step in enumerate(turn) if step.name.endswith(_MOVE_ENDINGS)]
            if not at_moves:
                raise LookupError(f"{player} has no move or battle step in its turn")
            first, last = at_moves[0], at_moves[-1]
            before += turn[:first]
            after += turn[last + 1:]
            if player == leader:
                moves = [_led_by(step, leader, members) for step in turn[first:last + 1]]
            leader_of.update((step.name, leader) for step in turn)
        merged[leader] = before + moves + after
    combined, placed = [], set()
    for step in sequence:
        led_by = leader_of.get(step.name)
        if led_by is None:
            combined.append(step)
        elif led_by not in placed:
            placed.add(led_by)
            combined += merged[led_by]
    return combined


def _led_by(step: m.Step, leader: str, members: list[str]) -> m.Step:
    """A combat move of the leader's in which it moves the members' units too (combinedTurns lists
    every one of them, after those it already listed); other steps as they are."""
    if not step.name.endswith("CombatMove"):
        return step
    # a combinedTurns property without a value lists nobody yet
    listed = ([p.value.split(":") for p in step.properties if p.name == "combinedTurns" and p.value] or [[]])[-1] \
        or [leader]
    listed += [member for member in members if member not in listed]
    kept = [m.StepProperty(p.name, p.value) for p in step.properties if p.name != "combinedTurns"]
    return replace(step, properties=kept + [m.StepProperty("combinedTurns", ":".join(listed))])
