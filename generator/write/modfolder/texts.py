"""The client's text files for a game: every key the game uses gets a text, from the spec's
`texts:` section, else from the rule that made the thing, else from its name.

    notifications.properties   KEY=text                  (a trigger's notification: KEY or victory: KEY)
    politicstext.properties    KEY.BUTTON=... (7 texts)  (a political action's text: KEY)
    actionstext.properties     KEY.BUTTON=... (7 texts)  (a user action's text: KEY)
    objectives.properties      <game>.<Player>;<attachment>=text, <game>.TABLEGROUP.<n>;<title>=a;b
                               (the Objectives tab lists only keys starting with the game's name)"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from generator.model import game as m
from generator.core.diagnostics import Diagnostic, Position, closest
from generator.model.rulerecord import RuleRecord
from generator.model.looks import ACTION_TEXT_SUFFIXES, AssetSpec
from generator.read.propfile import read_properties

UNUSED_TEXT = "TG454"  # a texts: entry the game has no use for

TEXT_FILES = {"notifications": "notifications.properties", "politics": "politicstext.properties",
              "actions": "actionstext.properties", "objectives": "objectives.properties"}
_ACTION_OPTION = {"politics": "PoliticalActionAttachment", "actions": "UserActionAttachment"}
OBJECTIVE_PREFIXES = ("objectiveAttachment", "conditionAttachment", "triggerAttachment", "politicalActionAttachment")
_BUTTON_LENGTH = 40
_FILE_NAME_ILLEGAL = re.compile(r"[/\n\r\t\0\f`?*\\<>|\":]")


@dataclass
class TextUse:
    """One key a game uses, with the attachments that use it (the first one's rule gives the text)."""

    key: str
    attachments: list[m.Attachment]


def objectives_prefix(game_name: str) -> str:
    """The start of every objectives.properties key the Objectives tab reads for this game
    (the game name with characters illegal in file names and spaces made '_', then '.')."""
    return _FILE_NAME_ILLEGAL.sub("_", game_name).replace(" ", "_") + "."


def used_keys(game: m.Game) -> dict[str, list[TextUse]]:
    found: dict[str, dict[str, TextUse]] = {kind: {} for kind in TEXT_FILES if kind != "objectives"}
    for attachment in game.attachments or []:
        if attachment.name.startswith("triggerAttachment") or attachment.class_name == "TriggerAttachment":
            for option in attachment.options:  # victory: a notification key too, shown as the game ends
                if option.name in ("notification", "victory") and option.value:
                    found["notifications"].setdefault(option.value, TextUse(option.value, [])).attachments.append(
                        attachment)
        for kind, class_name in _ACTION_OPTION.items():
            if attachment.class_name == class_name:
                for option in attachment.options:
                    if option.name == "text" and option.value:
                        found[kind].setdefault(option.value, TextUse(option.value, [])).attachments.append(attachment)
    return {kind: list(uses.values()) for kind, uses in found.items()}


def objective_attachments(game: m.Game) -> list[m.Attachment]:
    """The national objectives players should see in the Objectives tab: rules attachments named
    objectiveAttachment..., in game order."""
    players = {p.name for p in game.players}
    return [a for a in game.attachments or [] if a.name.startswith("objectiveAttachment") and a.attach_to in players]


class _Texts:
    def __init__(self, game: m.Game, rules: list[RuleRecord], look: AssetSpec):
        self.game, self.look = game, look
        self.rules = sorted(rules, key=lambda record: record.pos.line or 0)
        self.rule_of: dict[str, RuleRecord] = {}
        for record in rules:
            for name in record.generated:
                self.rule_of.setdefault(name, record)

    def rule_for(self, attachment: m.Attachment) -> RuleRecord | None:
        """The rule that made an attachment: the one that names it, else the one whose YAML holds it
        (an attachment a rule's own add: declares sits below the rule's first line)."""
        record = self.rule_of.get(attachment.name)
        if record is not None or attachment.pos is None:
            return record
        before = [r for r in self.rules if r.pos.file == attachment.pos.file and (r.pos.line or 0) <= (
            attachment.pos.line or 0)]
        return before[-1] if before else None

    def plain(self, kind: str, key: str, attachments: list[m.Attachment]) -> str:
        """The text a key is about: the spec's, else its rule's, else its name in words (as HTML)."""
        given = self.look.texts.get(kind, {}).get(key, {})
        if "" in given:
            return given[""]
        for attachment in attachments:
            record = self.rule_for(attachment)
            if record is not None:
                return html.escape(record.text, quote=False)
        return html.escape(key.replace("_", " "), quote=False)

    def action_texts(self, kind: str, use: TextUse) -> list[tuple[str, str]]:
        given = self.look.texts.get(kind, {}).get(use.key, {})
        text = given.get("DESCRIPTION") or self.plain(kind, use.key, use.attachments)
        button = given.get("BUTTON") or html.escape(
            self.button(use) or _shortened(re.sub(r"<[^>]*>", "", html.unescape(text))), quote=False)
        actors = sorted({a.attach_to for a in use.attachments})
        actor = actors[0].replace("_", " ") if len(actors) == 1 else "A player"
        defaults = {
            "BUTTON": button,
            "DESCRIPTION": text,
            "NOTIFICATION_SUCCESS": f"Done: {button}",
            "NOTIFICATION_FAILURE": f"Failed: {button}",
            "OTHER_NOTIFICATION_SUCCESS": f"{actor}: {button}",
            "OTHER_NOTIFICATION_FAILURE": f"{actor} tried and failed: {button}",
            "ACCEPT_QUESTION": f"{actor} asks for your consent: {text} Do you accept?",
        }
        return [(f"{use.key}.{suffix}", given.get(suffix, defaults[suffix])) for suffix in ACTION_TEXT_SUFFIXES]

    def button(self, use: TextUse) -> str | None:
        """A short label: the relationship a political action makes ("Declare war on Vichy"), else
        the key in words without its rule's id ("Accept French Surrender")."""
        changes = {tuple(o.value.split(":")) for a in use.attachments for o in a.options
                   if o.name == "relationshipChange" and o.value and o.value.count(":") == 2}
        types = {change[2] for change in changes}
        actors = {a.attach_to for a in use.attachments}
        others = sorted({p for first, second, _ in changes for p in (first, second) if p not in actors})
        if len(types) == 1 and others:
            kind = types.pop()
            names = ", ".join(p.replace("_", " ") for p in others)
            return f"Declare war on {names}" if kind.lower() == "war" else f"{kind.replace('_', ' ')} with {names}"
        words = use.key
        record = self.rule_for(use.attachments[0]) if use.attachments else None
        if record is not None:  # the rule's id (S001_R29_) or its series (S001_) says nothing to players
            rule_id = re.sub(r"\W+", "_", record.id).strip("_")
            for prefix in (rule_id + "_", rule_id.split("_")[0] + "_"):
                if words.startswith(prefix):
                    words = words[len(prefix):]
                    break
        words = " ".join(words.replace("_", " ").split())
        return words if re.search(r"[A-Za-z]{3}", words) else None

    def objectives(self, base_file: bytes | None) -> list[tuple[str, str]]:
        """Groups and texts for this game's prefix: the base's objectives re-keyed to it (texts and
        grouping kept), then every objective of the game the base does not describe."""
        prefix = objectives_prefix(self.game.info.name or "")
        base = read_properties(base_file) if base_file else {}
        exists = {a.name for a in self.game.attachments or []}
        players = {p.name for p in self.game.players}
        base_texts: dict[tuple[str, str], str] = {}
        groups_by_game: dict[str, list[tuple[str, list[str]]]] = {}
        for key, value in base.items():
            head, _, tail = key.partition(";")
            parts = head.split(".")
            if len(parts) >= 3 and parts[-2] == "TABLEGROUP":
                listed = [name for name in value.split(";") if name in exists]
                if listed:
                    groups_by_game.setdefault(".".join(parts[:-2]), []).append((tail, listed))
            elif len(parts) >= 2 and tail:
                base_texts.setdefault((parts[-1], tail), value)
        # The base file may describe several games: the grouping of the one most like this game.
        groups = max(groups_by_game.values(), key=lambda found: sum(len(names) for _, names in found), default=[])
        grouped = {name for _, names in groups for name in names}
        new_by_player: dict[str, list[str]] = {}
        for attachment in objective_attachments(self.game):
            if attachment.name not in grouped:
                new_by_player.setdefault(attachment.attach_to, []).append(attachment.name)
        groups += list(new_by_player.items())
        owner = {a.name: a.attach_to for a in self.game.attachments or [] if a.attach_to in players}
        entries = []
        for number, (title, names) in enumerate(groups, start=1):
            entries.append((f"{prefix}TABLEGROUP.{number:02d};{title}", ";".join(names)))
        by_name = {a.name: a for a in self.game.attachments or []}
        for _, names in groups:
            for name in names:
                player = owner.get(name)
                if player is None:
                    continue
                text = base_texts.get((player, name))
                given = self.look.texts.get("objectives", {}).get(name, {})
                if "" in given or text is None:
                    text = self.plain("objectives", name, [by_name[name]])
                entries.append((f"{prefix}{player};{name}", text))
        return entries if any(key.startswith(prefix) and "TABLEGROUP" not in key for key, _ in entries) else []


def _shortened(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _BUTTON_LENGTH:
        return text
    cut = text[:_BUTTON_LENGTH].rsplit(" ", 1)[0].rstrip(",;:.-")
    return cut + "..."


def text_entries(game: m.Game, rules: list[RuleRecord], look: AssetSpec, base_objectives: bytes | None
                 ) -> dict[str, list[tuple[str, str]]]:
    """file name -> (key, text) for every key the game uses (merged later: keys present stay)."""
    texts = _Texts(game, rules, look)
    uses = used_keys(game)
    result = {
        TEXT_FILES["notifications"]: [(u.key, texts.plain("notifications", u.key, u.attachments))
                                      for u in uses["notifications"]],
        TEXT_FILES["politics"]: [entry for u in uses["politics"] for entry in texts.action_texts("politics", u)],
        TEXT_FILES["actions"]: [entry for u in uses["actions"] for entry in texts.action_texts("actions", u)],
        TEXT_FILES["objectives"]: texts.objectives(base_objectives),
    }
    return {name: entries for name, entries in result.items() if entries}


def unused_text_warnings(game: m.Game, look: AssetSpec, source: str) -> list[Diagnostic]:
    """A `texts:` entry for a key the game never uses is most likely a typo."""
    uses = used_keys(game)
    used = {kind: {u.key for u in found} for kind, found in uses.items()}
    used["objectives"] = {a.name for a in game.attachments or [] if a.name.startswith(OBJECTIVE_PREFIXES)}
    warnings = []
    for kind, entries in look.texts.items():
        for key in entries:
            if key not in used.get(kind, set()):
                warnings.append(Diagnostic(UNUSED_TEXT, f"texts: {kind} has a text for '{key}', which the game "
                                           "does not use", look.text_positions.get((kind, key), Position(source)),
                                           closest(key, sorted(used.get(kind, set()))) or
                                           f"keys the game uses: {', '.join(sorted(used.get(kind, set()))) or 'none'}",
                                           "warning"))
    return warnings
