"""The standard condition parameters of a macro (macros.CONDITION_PARAMS) turned into the options
of RulesAttachments; a template gets them as `condition`."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Conditions:
    """The standard condition parameters of a macro (macros.CONDITION_PARAMS) as options of up to
    three RulesAttachments: the main one, one for 'at war with none of', one inverted for 'owns none of'."""

    main: list[tuple[str, str, str | None]] = field(default_factory=list)
    peace: list[list[tuple[str, str, str | None]]] = field(default_factory=list)  # one condition each
    not_held: list[tuple[str, str, str | None]] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    side_held: list[tuple[str, str, str | None]] = field(default_factory=list)

    @classmethod
    def from_params(cls, values: dict, side: list[str] | None = None) -> "Conditions":
        """side: the players whose ownership counts for allied_owns (the player's side as the
        game's alliances declare it). 1.9's alliedOwnershipTerritories asks the relationship
        instead, whose archetype may be neutral between partners of one side (G40's Concordant
        China and UK Pacific), so with a side allied_owns is a direct-ownership test by those
        players, in a condition of its own (its `players` option must not touch owns:)."""
        players = [("players", ":".join(values["owner"]), None)] if values["owner"] else []
        count = str(values["count"])

        def ownership(option: str, territories: list[str]) -> list:
            if not territories:
                return []
            needed = str(len(territories)) if count == "all" else count
            return [(option, ":".join(territories), needed)]

        main = ownership("directOwnershipTerritories", values["owns"])
        side_held = []
        if side:
            side_held = ownership("directOwnershipTerritories", values["allied_owns"])
            side_held = [("players", ":".join(side), None)] + side_held if side_held else []
        else:
            main += ownership("alliedOwnershipTerritories", values["allied_owns"])
        owners = values["owner"]
        # 1.9 tests atWarPlayers for the attached player only, never for `players`: with owner:
        # each owner/enemy pair is a relationship test of its own.
        if values["at_war_with"] and owners:
            main += [("relationship", f"{o}:{p}:anyWar", None) for o in owners for p in values["at_war_with"]]
        elif values["at_war_with"]:
            main.append(("atWarPlayers", ":".join(values["at_war_with"]), str(len(values["at_war_with"]))))
        if values["rounds"]:
            main.append(("rounds", str(values["rounds"]), None))
        peace_pairs: list[list[tuple[str, str, str | None]]]
        if values["not_at_war_with"] and owners:
            # "at war with none" is one inverted test per pair ("not all at war" would be wrong)
            peace_pairs = [[("relationship", f"{o}:{p}:anyWar", None), ("invert", "true", None)]
                           for o in owners for p in values["not_at_war_with"]]
        elif values["not_at_war_with"]:
            peace_pairs = [players + [("atWarPlayers", ":".join(values["not_at_war_with"]), "0")]]
        else:
            peace_pairs = []
        not_held = [("directOwnershipTerritories", ":".join(values["not_owns"]), "1"),
                    ("invert", "true", None)] if values["not_owns"] else []
        return cls(players + main if main else [], peace_pairs, players + not_held if not_held else [],
                   list(values["conditions"]), side_held)

    def __bool__(self) -> bool:
        return bool(self.main or self.peace or self.not_held or self.references or self.side_held)

    def attachments(self, base: str, inline: bool = False) -> list[tuple[str, list]]:
        """(name, options) of each condition to declare; inline: the main options go elsewhere
        (a national objective is itself a RulesAttachment and carries them)."""
        parts = [] if inline else [(base, self.main)]
        parts += [(f"{base}_Peace" + (f"_{i + 1}" if len(self.peace) > 1 else ""), options)
                  for i, options in enumerate(self.peace)]
        parts.append((f"{base}_Not_Held", self.not_held))
        parts.append((f"{base}_Side_Held", self.side_held))
        return [(name, options) for name, options in parts if options]

    def gate(self, base: str) -> list[str]:
        """What a trigger's `conditions` option lists: names(base), or without any condition base_Always, a
        condition the macro declares to hold always (the 1.9 engine never fires a trigger without one)."""
        return self.names(base) or [f"{base}_Always"]

    def names(self, base: str, inline: bool = False) -> list[str]:
        """What a `conditions` option lists: existing conditions first, then the declared ones."""
        return self.references + [name for name, _ in self.attachments(base, inline)]
