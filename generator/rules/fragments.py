"""Reading a rule macro's rendered fragment into the game model, and putting
attachments in an order the engine can parse.

A fragment holds the game XML's own elements, read as the importer reads a game,
with every entity placed at the rule's YAML line, plus a few instructions that
change what the base game already has (see merge_fragment)."""
from __future__ import annotations

from lxml import etree

from generator.model import game as m
from generator.core.diagnostics import Position, closest
from generator.read.importer import XmlReader, import_tree, read_gameplay
from generator.rules.macros import NameIndex
from generator.speclang.overlay import add_fragment, effective_attachment, set_options
from generator.speclang.fullgame import SpecReader

# Options through which one attachment names another while the engine parses (game-xml.md §1):
# the named one must come first in <attachmentList>.
_REFERENCE_OPTIONS = ("conditions", "trigger", "activateTrigger", "support")


def merge_fragment(r: SpecReader, tree: etree._ElementTree, game: m.Game, pos: Position, index: NameIndex,
                   details: list[str]) -> list[str]:
    """Read a rendered fragment into the model; returns the names of the attachments it added or changed.

    Instructions besides the game XML's own elements:
      <note>text</note>                      goes into the rule's game notes (details)
      <sequence insertAfter=S | insertBefore=S | replace="true">   steps placed, or the whole sequence replaced
      <attachment mode="merge" ...>          options set on an existing attachment (created when missing)
      <property mode="merge" ...>            a property's value set, keeping the base's declaration
      <unitInitialize mode="replace">        placements replace those of the same territory and owner
      <transferUnits territory= from= to=/>  initial units change owner
    Initial owners, resources given and relationships replace those of the same territory,
    player and resource, or pair of players."""
    root = tree.getroot()
    reader = XmlReader(r.source, r.collector, pos)
    generated = []
    for note in root.findall("note"):
        root.remove(note)
        if (note.text or "").strip():
            details.append(" ".join(note.text.split()))
    for sequence in root.findall("sequence"):
        root.remove(sequence)
        _insert_steps(r, reader, sequence, game, pos)
    for transfer in root.findall("transferUnits"):
        root.remove(transfer)
        _transfer_units(game, transfer.get("territory"), transfer.get("from"), transfer.get("to"))
    merges = [a for a in root.iter("attachment") if a.get("mode") == "merge"]
    for element in merges:
        element.getparent().remove(element)
        target = effective_attachment(game, element.get("name"), element.get("attachTo"))
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
        existing = game.find_property(element.get("name"))
        if existing is not None:
            existing.value, existing.text = element.get("value"), None
        else:
            element.attrib.pop("mode")
            holder = etree.Element("propertyList")
            holder.append(element)
            add_fragment(game, import_tree(etree.ElementTree(_wrap(holder)), r.source, r.collector, pos))
    replace_units = False
    for units in root.iter("unitInitialize"):
        replace_units = replace_units or units.attrib.pop("mode", None) == "replace"
    fragment = import_tree(tree, r.source, r.collector, fixed_position=pos)
    if fragment.initialize is not None:
        _make_room(game, fragment.initialize, replace_units)
    _give_every_trigger_a_condition(game, fragment, pos)
    add_fragment(game, fragment)
    generated += [a.name for a in fragment.attachments or []]
    index.add_game(fragment)
    index.add("step", (s.name for s in game.steps or []))  # its new steps stand in the game's sequence
    return generated


ALWAYS_TRUE = "conditionAttachment_Always_True"


def _give_every_trigger_a_condition(game: m.Game, fragment: m.Game, pos: Position) -> None:
    """The 1.9 engine never fires a trigger that has no conditions (seen in play), so a macro's
    trigger without any is given one that always holds: 'round 1 and later'."""
    attachments = fragment.attachments or []
    bare = [a for a in attachments if a.class_name == "TriggerAttachment"
            and not any(o.name == "conditions" for o in a.options)]
    if not bare:
        return
    if not any(a.name == ALWAYS_TRUE for a in (game.attachments or []) + attachments):
        holder = game.players[0].name if game.players else bare[0].attach_to
        attachments.insert(0, m.Attachment(
            ALWAYS_TRUE, holder, m.ATTACHMENT_PACKAGE + "RulesAttachment", "player",
            options=[m.Option("rounds", "1-+", None, pos)], pos=pos))
    for trigger in bare:
        trigger.options.insert(0, m.Option("conditions", ALWAYS_TRUE, None, pos))


def _wrap(section) -> etree._Element:
    root = etree.Element("fragment")
    root.append(section)
    return root


def _make_room(game: m.Game, incoming: m.Initialize, replace_units: bool) -> None:
    """Drop the base's entries that the fragment's initial state replaces."""
    init = game.initialize
    if init is None:
        return
    if incoming.owners and init.owners:
        territories = {o.territory for o in incoming.owners}
        init.owners = [o for o in init.owners if o.territory not in territories]
    if incoming.resources and init.resources:
        given = {(g.player, g.resource) for g in incoming.resources}
        init.resources = [g for g in init.resources if (g.player, g.resource) not in given]
    if incoming.relationships and init.relationships:
        pairs = {frozenset((rel.player1, rel.player2)) for rel in incoming.relationships}
        init.relationships = [rel for rel in init.relationships
                              if frozenset((rel.player1, rel.player2)) not in pairs]
    if replace_units and incoming.units and init.units:
        places = {(u.territory, u.owner) for u in incoming.units}
        init.units = [u for u in init.units if (u.territory, u.owner) not in places]


def _transfer_units(game: m.Game, territory: str | None, old: str | None, new: str | None) -> None:
    for placement in (game.initialize.units or []) if game.initialize else []:
        if placement.territory == territory and placement.owner == old:
            placement.owner = new


def _insert_steps(r: SpecReader, reader: XmlReader, sequence, game: m.Game, pos: Position) -> None:
    holder = m.Game()
    placement = {key: sequence.get(key) for key in ("insertAfter", "insertBefore", "replace")}
    sequence.attrib.clear()
    wrapper = etree.Element("gamePlay")
    wrapper.append(sequence)
    read_gameplay(reader, wrapper, holder)
    steps = holder.steps or []
    current = game.steps or []
    names = [s.name for s in current]
    if placement["replace"] == "true":
        game.steps = steps
        return
    anchor = placement["insertAfter"] or placement["insertBefore"]
    if anchor is None:
        game.steps = current + steps
        return
    if anchor not in names:
        r.error("TG064", f"the game has no step '{anchor}' to insert steps next to", pos,
                closest(anchor, names) or "check the step name")
        return
    at = names.index(anchor) + (1 if placement["insertAfter"] else 0)
    current[at:at] = steps  # the game's own list: the anchor is in it


# --- declaration order ---------------------------------------------------------------------------------------------

def _references(attachment: m.Attachment) -> list[str]:
    names = []
    for option in attachment.options:
        if option.name not in _REFERENCE_OPTIONS or not option.value:
            continue
        if option.name == "activateTrigger":
            names.append(option.value.split(":", 1)[0])
        else:
            names += [part.lstrip("-") for part in option.value.split(":")]
    return names


def order_attachments(attachments: list[m.Attachment]) -> list[m.Attachment]:
    """Every attachment after those it names (the engine resolves names while parsing, in document
    order); otherwise the order is kept, so an already ordered list comes back unchanged."""
    by_name: dict[str, list[int]] = {}
    for position, attachment in enumerate(attachments):
        if attachment.type == "player":
            by_name.setdefault(attachment.name, []).append(position)
    ordered, placed, visiting = [], set(), set()

    def dependencies(position: int):
        return (d for name in _references(attachments[position]) for d in by_name.get(name, ()))

    # depth first, dependencies before what needs them; a loop, not a recursive closure (that
    # refers to itself: a cycle keeping every attachment alive until the cyclic collector runs)
    for start in range(len(attachments)):
        if start in placed or start in visiting:
            continue
        visiting.add(start)
        stack = [(start, dependencies(start))]
        while stack:
            position, pending = stack[-1]
            for dependency in pending:
                if dependency not in placed and dependency not in visiting:  # a cycle cannot be ordered
                    visiting.add(dependency)
                    stack.append((dependency, dependencies(dependency)))
                    break
            else:
                stack.pop()
                visiting.discard(position)
                placed.add(position)
                ordered.append(attachments[position])
    return ordered
