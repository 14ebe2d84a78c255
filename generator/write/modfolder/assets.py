"""Colours, flags and unit images a mod's new players and unit types need in the map folder,
derived from the base map folder's own (generator.write.modfolder.images)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.model import game as m
from generator.core.diagnostics import Diagnostic, Position
from generator.model.units import unit_kinds, unit_options
from generator.core.writer import safe_name
from generator.model.looks import AssetSpec, Picture
from generator.write.modfolder.basefolder import BaseFolder
from generator.write.modfolder.drawnrecord import drawn_unchanged

NO_SOURCE_IMAGE = "TG453"  # an image drawn because no source image was found
ALREADY_THERE = "TG456"  # the map folder has it already


def _images():
    """The image code (Pillow, the map art), loaded only by a build that draws or measures a picture:
    most mods add nothing to draw, and their build should not pay for loading it."""
    from generator.write.modfolder import images

    return images

# flags/<Player><suffix>.png as both clients load them (generator/catalog/client.yaml: flag,
# flag_small, flag_large, flag_fade, flag_convoy); each is fatal where it is needed.
FLAG_SUFFIXES = ("", "_small", "_large", "_fade", "_convoy")
# The file-name suffixes the engines add to a unit's image name (damage, disabled, technologies).
_VARIANT = r"((?:_(?:hit|disabled|r|rockets|lr|jp|hb|ss|it))*)\.png"
_TECH_SUFFIXES = {"r", "rockets", "lr", "jp", "hb", "ss", "it"}  # only players with technologies see these
# New players' colours: readable on land and sea and different from each other; each new player
# gets the one farthest from every colour already taken.
PALETTE = ("B22222", "1E5AA8", "2E8B57", "D4A017", "6A3D9A", "E07B24", "008B8B", "8B4513", "C71585", "556B2F",
           "4682B4", "9ACD32", "7B68EE", "CD5C5C", "20B2AA", "BDB76B", "483D8B", "A0522D", "3CB371", "DB7093")
# What makes two unit types look alike, for a new type's default image.
_LIKENESS = ("isInfantry", "isArtillery", "isSub", "isStrategicBomber", "isAirTransport", "isAAforCombatOnly",
             "isRocket", "isMarine", "isAirTransportable", "canBlitz", "isConstruction", "isCombatTransport")


@dataclass
class AssetFiles:
    files: dict[str, bytes] = field(default_factory=dict)  # paths inside the content folder
    colours: list[tuple[str, str]] = field(default_factory=list)  # new color.<Player> entries
    warnings: list[Diagnostic] = field(default_factory=list)


def _distance(a: str, b: str) -> float:
    (r1, g1, b1), (r2, g2, b2) = _images().art.rgb(a), _images().art.rgb(b)
    mean_red = (r1 + r2) / 2  # a cheap perceptual weighting of RGB distance
    return ((2 + mean_red / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2
            + (2 + (255 - mean_red) / 256) * (b1 - b2) ** 2) ** 0.5


def pick_colour(taken: list[str]) -> str:
    return max(PALETTE, key=lambda c: (min((_distance(c, t) for t in taken), default=1e9), -PALETTE.index(c)))


def _words(unit: str) -> list[str]:
    """The words of a unit type's name: split at anything but letters and digits, and where a lower
    case letter meets an upper case one (heavy_armour, heavyArmour: heavy, armour)."""
    return [w for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])", unit) if w]


def _mark_of(unit: str) -> str:
    words = _words(unit)
    return ("".join(w[0] for w in words[:2]) if len(words) > 1 else unit[:1]).upper() or "?"


def _name_parts(unit: str) -> set[str]:
    """The runs of words of a unit type's name, as _squeezed(): heavy_armour -> heavy, armour,
    heavyarmour; battleshipPearl -> battleship, pearl, battleshippearl."""
    words = [w.lower() for w in _words(unit)]
    return {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


def _squeezed(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def kamikaze_owners(game: m.Game) -> set[str]:
    """The players the clients draw kamikaze zones for: each sea zone's `originalOwner`, else its owner
    at the start (as generator.check.mapfolder reads the same options from the XML)."""
    water = {t.name for t in game.territories if (t.water or "").lower() == "true"}
    owners = {o.territory: o.owner for o in (game.initialize.owners or [])} if game.initialize else {}
    found: set[str] = set()
    for attachment in game.attachments or []:
        if attachment.class_name != "TerritoryAttachment" or attachment.attach_to not in water:
            continue
        options = {option.name: option.value or "" for option in attachment.options}
        if options.get("kamikazeZone", "false").lower() in ("false", "0", ""):
            continue
        original = options.get("originalOwner") or owners.get(attachment.attach_to)
        if original:
            found.add(original)
    return found


class _Builder:
    def __init__(self, game: m.Game, owned: set[tuple[str, str]], look: AssetSpec, base: BaseFolder | None, existing,
                 source: str, drawn_before: dict[str, str]):
        self.game, self.look, self.base, self.existing, self.source = game, look, base, existing, source
        self.drawn_before = drawn_before
        self.owned = owned
        self.out = AssetFiles()
        self.kinds = unit_kinds(game)
        self.options = unit_options(game)
        self.players = [p.name for p in game.players]
        self.colours: dict[str, str] = {}
        technology = game.technology or m.Technology()
        self.with_techs = {entry.player for entry in technology.player_techs if entry.categories}

    # -- lookups in what is already there (the output folder, else the base map folder)
    def has(self, relpath: str) -> bool:
        """Whether the file is there already: the base map's never change; one in the output folder
        stays unless an earlier build drew it and it is as drawn (drawn again: what it looks like may
        follow from what changed) or it shows a player whose colour this build chooses."""
        if self.base is not None and self.base.exists(relpath):
            return True
        there = self.existing(relpath)
        if there is None or drawn_unchanged(there, self.drawn_before.get(relpath)):
            return False
        player = relpath.split("/")[1] if relpath.startswith("units/") else relpath[len("flags/"):-4]
        own = {key[len("color."):] for key, _ in self.out.colours}
        return not any(player in (p, *(p + s for s in FLAG_SUFFIXES)) for p in own)

    def base_image(self, relpath: str) -> bytes | None:
        return self.base.read(relpath) if self.base is not None else None

    def warn(self, message: str, pos: Position | None, hint: str, code: str = NO_SOURCE_IMAGE) -> None:
        self.out.warnings.append(Diagnostic(code, message, pos or self.game.pos or Position(self.source),
                                            hint, "warning"))

    # -- colours
    def assign_colours(self, existing_properties: dict[str, str]) -> None:
        def known(player):
            value = existing_properties.get(f"color.{player}", "").strip().lstrip("#")
            return value.upper() if re.fullmatch(r"[0-9A-Fa-f]{6}", value) else None

        taken = [v.strip().lstrip("#").upper() for k, v in existing_properties.items()
                 if k.startswith("color.") and re.fullmatch(r"#?[0-9A-Fa-f]{6}", v.strip())]
        for player in self.players:
            colour = known(player)
            wanted = self.look.players.get(player)
            if colour is not None and wanted is not None and wanted.color and wanted.color != colour:
                self.warn(f"{player} has the colour {colour} in the map folder's map.properties already; it is kept",
                          wanted.pos, "a mod adds to the map folder and never changes it: leave color out",
                          ALREADY_THERE)
            if colour is None:
                colour = wanted.color if wanted is not None and wanted.color else pick_colour(taken)
                self.out.colours.append((f"color.{player}", colour))
                taken.append(colour)
            self.colours[player] = colour or "808080"

    # -- flags
    def flag_size(self, suffix: str) -> tuple[int, int]:
        for player in self.players:
            data = self.base_image(f"flags/{player}{suffix}.png")
            if data is not None:
                return _images().size_of(data)
        return _images().FLAG_SIZES[suffix]

    def flags(self) -> None:
        faded_for = kamikaze_owners(self.game)
        for player in self.players:
            look = self.look.players.get(player)
            if safe_name(player, "") != player or self.has(f"flags/{player}.png"):
                if look is not None and look.flag is not None and self.base is not None and \
                        self.base.exists(f"flags/{player}.png"):
                    self.warn(f"the map folder has a flag for {player} already; it is kept", look.flag.pos,
                              "a mod adds to the map folder and never changes it: leave flag out", ALREADY_THERE)
                if player in faded_for and safe_name(player, "") == player:
                    self.faded_flag_of_a_map_player(player)
                continue
            picture = look.flag if look is not None and look.flag is not None else Picture(drawn=True)
            for suffix in FLAG_SUFFIXES:
                self.out.files[f"flags/{player}{suffix}.png"] = self.flag(player, suffix, picture)

    def faded_flag_of_a_map_player(self, player: str) -> None:
        """Both clients draw a kamikaze zone's original owner with flags/<Player>_fade.png, which most
        maps have only for the players their own game gives kamikaze zones (Global 1940: Japan): washed
        out from the player's own flag when the map folder lacks it."""
        wanted = f"flags/{player}_fade.png"
        plain = self.base_image(f"flags/{player}.png")
        if plain is not None and not self.has(wanted):
            self.out.files[wanted] = _images().faded(plain)

    def flag(self, player: str, suffix: str, picture: Picture) -> bytes:
        colour = self.colours[player]
        if not picture.drawn and picture.source:
            data = self.base_image(f"flags/{picture.source}{suffix}.png")
            if data is None and suffix in ("_fade", "_convoy"):
                plain = self.base_image(f"flags/{picture.source}.png")
                if plain is not None:
                    flag = _images().derived(plain, colour, picture.mark, colour)
                    return _images().faded(flag) if suffix == "_fade" else flag
            if data is not None:
                return _images().derived(data, colour, picture.mark if suffix != "_small" else None, colour)
            if suffix == "":
                self.warn(f"the base map has no flag flags/{picture.source}.png to derive {player}'s flag from",
                          picture.pos, "name a player whose flag the map folder has, or write flag: drawn")
        return _images().drawn_flag(player, colour, suffix, self.flag_size(suffix), picture.mark)

    # -- unit images
    def wanted_pairs(self) -> list[tuple[str, str]]:
        """Every (player, unit type) that can occur, and every unit type for a new player (one the
        base map has no unit folder for), which may come to own anything."""
        base_players = set(self.base.unit_players) if self.base is not None else set()
        units = [u.name for u in self.game.units or []]
        pairs = [(player, unit) for player in self.players for unit in units
                 if player not in base_players or (player, unit) in self.owned]
        return [(p, u) for p, u in pairs if safe_name(p, "") == p and safe_name(u, "") == u]

    def source_unit(self, unit: str) -> tuple[str | None, str | None, Picture | None]:
        """The unit whose images a unit type's are derived from, the badge, and the spec's choice."""
        look = self.look.units.get(unit)
        picture = look.image if look is not None else None
        if picture is not None:
            if picture.drawn:
                return None, None, picture
            return picture.source or unit, picture.mark, picture
        if self.base is not None and any(f"{unit}.png" in self.base.unit_images(p) for p in self.base.unit_players):
            return unit, None, None
        return self.most_like(unit), _mark_of(unit), None

    def most_like(self, unit: str) -> str | None:
        """The base map's unit type most like a new one: same kind first, then shared flags and values."""
        if self.base is None:
            return None
        pictured = {name[:-4] for p in self.base.unit_players for name in self.base.unit_images(p)}
        mine, kind = self.options.get(unit, {}), self.kinds.get(unit, ("land", False))[0]

        named_in = _name_parts(unit)

        def score(other: str):
            # a name first (cruiser_pearl looks like a cruiser whatever its values), so that a changed
            # value does not make a unit look like another
            theirs = self.options.get(other, {})
            same = sum((mine.get(k) == "true") == (theirs.get(k) == "true") for k in _LIKENESS)
            gaps = sum(abs(_number(mine.get(k)) - _number(theirs.get(k))) for k in ("movement", "attack", "defense"))
            return (_squeezed(other) in named_in, self.kinds.get(other, ("land", False))[0] == kind, same, -gaps)

        candidates = [u.name for u in self.game.units or [] if u.name != unit and u.name in pictured]
        return max(candidates, key=score) if candidates else None

    def source_player(self, player: str, unit: str) -> str | None:
        """Whose image of the unit to derive from: the player's own, else the spec's or its flag's
        source, else the first player (in game order) whose folder has it."""
        if self.base is None:
            return None
        have = [p for p in self.base.unit_players if f"{unit}.png" in self.base.unit_images(p)]
        look = self.look.players.get(player)
        pictures = (look.units, look.flag) if look is not None else ()
        preferred = [player] + [pic.source for pic in pictures if pic is not None and pic.source]
        ordered = preferred + [p for p in self.players if p in have] + have
        return next((p for p in ordered if p in have), None)

    def unit_images(self) -> None:
        for player, unit in self.wanted_pairs():
            target = f"units/{player}/{unit}.png"
            if self.has(target):
                continue
            self.out.files.update(self.unit_image(player, unit))

    def unit_image(self, player: str, unit: str) -> dict[str, bytes]:
        source, mark, picture = self.source_unit(unit)
        origin = self.source_player(player, source) if source else None
        colour = self.colours.get(player, "808080")
        if origin is None or source is None or self.base is None:  # (an origin comes with both; none: drawn)
            if picture is not None and not picture.drawn:
                self.warn(f"the base map has no image units/<player>/{source}.png to derive {unit}'s from",
                          picture.pos, "name a unit type the map folder has images of, or write image: drawn")
            kind, damageable = self.kinds.get(unit, ("land", False))
            size = self.unit_size()
            files = {f"units/{player}/{unit}.png": _images().drawn_unit(unit, kind, colour, size)}
            if damageable:
                files[f"units/{player}/{unit}_hit.png"] = _images().drawn_unit(unit, kind, colour, size, damaged=True)
            return files
        variant = re.compile(re.escape(source) + _VARIANT)
        other_units = {u.name for u in self.game.units or []} - {source}
        files = {}
        for name in self.base.unit_images(origin):
            found = variant.fullmatch(name)
            if found is None or name[:-4] in other_units:
                continue
            if player not in self.with_techs and _TECH_SUFFIXES & set(found.group(1).split("_")):
                continue
            data = self.base.read(f"units/{origin}/{name}")
            files[f"units/{player}/{unit}{found.group(1)}.png"] = _images().derived(
                data, colour if origin != player else None, mark, colour)
        return files

    def unit_size(self) -> tuple[int, int]:
        if self.base is not None:
            for player in self.base.unit_players:
                for name in self.base.unit_images(player):
                    return _images().size_of(self.base.read(f"units/{player}/{name}"))
        return (_images().art.UNIT_IMAGE, _images().art.UNIT_IMAGE)


def _number(value: str | None) -> float:
    try:
        return float(value) if value else 0.0
    except ValueError:
        return 0.0


def asset_files(game: m.Game, owned: set[tuple[str, str]], look: AssetSpec, base: BaseFolder | None, existing,
                existing_properties: dict[str, str], source: str,
                drawn_before: dict[str, str] | None = None) -> AssetFiles:
    """Colours, flags and unit images still missing; owned: the (player, unit type) pairs that can
    occur; `existing(relpath)` reads the output folder's content folder (None where absent),
    existing_properties is the map.properties already there; drawn_before: the SHA-256 of each image
    an earlier build drew there, by its path in the content folder."""
    builder = _Builder(game, owned, look, base, existing, source, drawn_before or {})
    builder.assign_colours(existing_properties)
    builder.flags()
    builder.unit_images()
    return builder.out
