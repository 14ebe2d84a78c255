"""The structural part of the semantic checks (generator.check.validate): what the schema lets through
because an engine loads it, reported as each engine treats it, and the complaints 1.9's DTD
check prints (1.9 validates every game against its game.dtd, prints what does not fit and loads
the game anyway: warnings).

StructureChecks is one part of the checker in generator.check.validate, which supplies the reporting."""
from __future__ import annotations

import functools
import re

from generator.core.diagnostics import closest
from generator.check.schema import schema_document
from generator.check.checkerstate import CheckerState, Element
from generator.core.enginename import EngineName

# Attributes 1.9's game.dtd declares as ID: one namespace for all of them, values must be XML names.
_DTD_IDS = {"resource": "name", "unit": "name", "relationshipType": "name", "player": "name",
            "territoryEffect": "name", "delegate": "name", "step": "name", "productionRule": "name",
            "repairRule": "name", "repairFrontier": "name", "productionFrontier": "name", "techname": "name"}
_XML_NAME = re.compile(r"[^\W\d][\w.\-:\u00b7]*\Z")
# Root children 1.9 reads with getSingleChild ("Too many children named ...").
_SINGLE_SECTIONS = ("info", "loader", "triplea", "diceSides", "variableList", "map", "resourceList", "playerList",
                    "unitList", "relationshipTypes", "territoryEffectList", "gamePlay", "production",
                    "technology", "attachmentList", "initialize", "propertyList")


_XS = "{http://www.w3.org/2001/XMLSchema}"


@functools.cache
def declared_attributes() -> dict[str, frozenset[str]]:
    """The attributes game.xsd declares for each element name (the union over its declarations;
    elements kept only to be skipped, type "skipped", declare none)."""
    schema = schema_document().getroot()
    named_types = {t.get("name"): t for t in schema.iter(f"{_XS}complexType") if t.get("name")}
    table: dict[str, set[str]] = {}
    for element in schema.iter(f"{_XS}element"):
        name = element.get("name")
        if not name or element.get("type") == "skipped":
            continue
        body = element.find(f"{_XS}complexType")
        if body is None:
            body = named_types.get(element.get("type"))
        names = table.setdefault(name, set())
        if body is not None:
            names.update(_own_attributes(body))
    return {name: frozenset(names) for name, names in table.items()}


def _own_attributes(complex_type) -> list[str]:
    """Attribute names of a complex type, not those of the elements declared inside it."""
    found, stack = [], list(complex_type)
    while stack:
        node = stack.pop()
        if node.tag == f"{_XS}attribute" and node.get("name"):
            found.append(node.get("name"))
        elif node.tag != f"{_XS}element":
            stack.extend(node)
    return found


class StructureChecks(CheckerState):
    """Mixed into the checker of generator.check.validate, whose state and reporting it uses."""

    def check_structure(self):
        """The structural checks, in this order: attributes no engine reads (the root's, then each
        section's), repeated sections, skipped content (nested steps, then stray content of
        attachment lists), options without a value, properties without a name, placements without
        a quantity, and for 1.9 its DTD complaints (IDs, then attachments without an option). All but
        the repeated sections and the IDs look at one top-level section at a time (LOCAL_PASSES),
        which a warm process keeps per section (generator.check.warmchecks.StructureMemo); of the
        IDs, it keeps what each section declares (dtd_id_entries) and compares them again."""
        root = self.root
        self.check_unknown_attributes(root, root_only=True)
        sections = list(root)
        memo = getattr(self, "structure_memo", None)
        if memo is not None:
            local = memo.run(self, sections)
        else:
            local = {name: [(section, self.local_pass(name, section)) for section in sections] for name in
                     self.local_pass_names()}
        local_reports = _Reports(local)
        self.out.diagnostics += local_reports.of("unknown attributes")
        self.check_repeated_sections(root)
        for name in ("nested steps", "attachment list content", "option values", "property names",
                     "placement quantities"):
            self.out.diagnostics += local_reports.of(name)
        if self.engine == EngineName.V1_9:
            id_entries = memo.id_entries if memo is not None else None
            if id_entries is not None and root.tag not in _DTD_IDS:  # the root is in no section
                self.check_dtd_ids_by_section(sections, id_entries)
            else:
                self.check_dtd_ids(root)
            self.out.diagnostics += local_reports.of("attachments without options")

    def local_pass_names(self) -> tuple[str, ...]:
        return LOCAL_PASSES + (("attachments without options",) if self.engine == EngineName.V1_9 else ())

    def local_pass(self, name: str, section) -> list:
        """The findings of one local pass over one top-level section (nothing else is read)."""
        before = len(self.out.diagnostics)
        getattr(self, _LOCAL_PASS_METHODS[name])(section)
        found = self.out.diagnostics[before:]
        del self.out.diagnostics[before:]
        return found

    def check_option_values(self, section):
        for option in section.iter("option"):
            if option.get("value") is None and option.get("name") is not None:
                self.report("error" if self.engine == EngineName.V1_9 else "warning", "TG108",
                            f"option '{option.get('name')}' has no value: "
                            + ("1.9 refuses the game" if self.engine == EngineName.V1_9 else
                               "the current engine skips it"), option, 'give it a value="..." or remove it')

    def check_property_names(self, section):
        for prop in section.iter("property"):
            if prop.get("name") is None and prop.getparent() is not None and prop.getparent().tag == "propertyList":
                self.warning("TG158", "property without a name: "
                             + ("1.9 stores it under an empty name" if self.engine == EngineName.V1_9
                                else "the current engine skips it"), prop, 'add name="..." or remove it')

    def check_placement_quantities(self, section):
        for placement in section.iter("unitPlacement"):
            if placement.get("quantity") is None:
                if self.engine == EngineName.V1_9:
                    self.error("TG159", "unitPlacement without quantity: 1.9 fails reading the number", placement,
                               'add quantity="1"')
                else:
                    self.warning("TG159", "unitPlacement without quantity: the current engine places no unit",
                                 placement, 'add quantity="1"')

    def check_unknown_attributes(self, top, root_only=False):
        """Attributes the game XML does not have: both engines ignore them (1.9 prints a complaint)."""
        declared = declared_attributes()
        for element in ((top,) if root_only else top.iter()):
            known = declared.get(element.tag) if isinstance(element.tag, str) else None
            if known is None or not element.attrib:
                continue
            unknown = [name for name in element.attrib if name not in known]
            if not unknown:
                continue
            shown = ", ".join(f"{name}=" for name in unknown[:5]) + (f" and {len(unknown) - 5} more"
                                                                    if len(unknown) > 5 else "")
            self.warning("TG183", f"<{element.tag}> has attribute{'s' if len(unknown) > 1 else ''} {shown} that "
                         "the engines ignore", element,
                         closest(unknown[0], known) or "declared here: " + (", ".join(sorted(known)) or "none"))

    def check_repeated_sections(self, root):
        seen: dict[str, Element] = {}
        for child in root:
            if not isinstance(child.tag, str) or child.tag not in _SINGLE_SECTIONS:
                continue
            if child.tag in seen:
                if self.engine == EngineName.V1_9:
                    self.error("TG157", f"a second <{child.tag}>: 1.9 refuses the game (too many children named "
                               f"{child.tag})", child, f"merge the two <{child.tag}> elements")
                else:
                    self.warning("TG157", f"a second <{child.tag}> (line {seen[child.tag].sourceline}): the current "
                                 "engine reads only one of them", child, f"merge the two <{child.tag}> elements")
            else:
                seen[child.tag] = child

    def check_nested_steps(self, section):
        """Content both engines skip: it loads, but does nothing. A step inside a step."""
        for step in section.iter("step"):
            parent = step.getparent()
            if parent is not None and parent.tag == "step":
                tail = "" if self.engine == EngineName.V1_9 else (
                    "; the current engine also stops reading the outer step's properties here")
                self.warning("TG107", f"a <step> inside step '{parent.get('name')}' is skipped by the engine{tail}",
                             step, "move it out of the outer step, or remove it (a broken comment?)")

    def check_attachment_list_content(self, attachment_list):
        """What both engines skip inside an attachment list: other elements, stray text."""
        if attachment_list.tag not in ("attachmentList", "attatchmentList"):
            return
        if attachment_list.text and attachment_list.text.strip():
            self.stray_text(attachment_list, attachment_list.text, attachment_list)
        for child in attachment_list:
            if isinstance(child.tag, str) and child.tag not in ("attachment", "attatchment"):
                self.warning("TG107", f"<{child.tag}> inside <{attachment_list.tag}> is skipped by the engine",
                             child, "move it to where it belongs, or remove it")
            if child.tail and child.tail.strip():
                self.stray_text(attachment_list, child.tail, child)

    def stray_text(self, parent, text, element):
        shown = " ".join(text.split())[:40]
        self.warning("TG107", f"text '{shown}' inside <{parent.tag}> is skipped by the engine", element,
                     "remove it (left over from an edit or a broken comment?)")

    def check_dtd_ids(self, root):
        """What 1.9 prints when it checks the game against its DTD (and then loads it): IDs."""
        ids: dict[str, Element] = {}  # ID value -> its first element
        for tag, attribute in _DTD_IDS.items():
            for element in root.iter(tag):
                value = element.get(attribute)
                if value is None:
                    continue
                self.report_dtd_id(tag, value, element, ids.get(value), _XML_NAME.match(value) is not None)
                ids.setdefault(value, element)

    def check_dtd_ids_by_section(self, sections: list, entries: list) -> None:
        """check_dtd_ids from each top-level section's dtd_id_entries (a warm process keeps them per
        section): the same reports in the same order, tag by tag, each in document order."""
        elements: dict[int, list] = {}

        def element_of(place: tuple[int, int]) -> Element:
            index, number = place
            if index not in elements:
                elements[index] = list(sections[index].iter(*_DTD_IDS))
            return elements[index][number]

        first: dict[str, tuple[str, tuple[int, int]]] = {}  # ID value -> (tag, place) of its first element
        for tag_number, tag in enumerate(_DTD_IDS):
            for index, section_entries in enumerate(entries):
                for entry_tag, number, value, is_name in section_entries[tag_number]:
                    earlier = first.get(value)
                    if not is_name or (earlier is not None and earlier[0] != entry_tag):
                        self.report_dtd_id(tag, value, element_of((index, number)),
                                           element_of(earlier[1]) if earlier is not None else None, is_name)
                    if earlier is None:
                        first[value] = (entry_tag, (index, number))

    def report_dtd_id(self, tag: str, value: str, element: Element, earlier: Element | None, is_name: bool) -> None:
        """1.9's complaints about one ID: not an XML name; already the ID of an element of another
        tag (`earlier`, the value's first element in check_dtd_ids's order)."""
        if not is_name:
            self.warning("TG109", f"1.9's DTD check: {tag} name '{value}' is not an XML name (spaces or "
                         "a leading digit); 1.9 prints a complaint and loads the game", element,
                         "names without spaces that start with a letter keep the log clean")
        if earlier is not None and earlier.tag != tag:
            self.warning("TG109", f"1.9's DTD check: '{value}' names both a {earlier.tag} (line "
                         f"{earlier.sourceline}) and a {tag}; IDs share one namespace, so 1.9 prints a "
                         "complaint and loads the game", element,
                         f"rename one of them, e.g. the {tag}")

    def check_attachments_have_options(self, section):
        """1.9's DTD complaint about an attachment without an option."""
        for attachment in section.iter("attachment", "attatchment"):
            if not any(isinstance(c.tag, str) and c.tag == "option" for c in attachment):
                self.warning("TG109", f"1.9's DTD check: attachment '{attachment.get('name')}' has no option; "
                             "1.9 prints a complaint and loads the game", attachment,
                             "give it an option or remove it")


# The passes that look at one top-level section at a time, in the order check_structure reports them.
_LOCAL_PASS_METHODS = {"unknown attributes": "check_unknown_attributes", "nested steps": "check_nested_steps",
                       "attachment list content": "check_attachment_list_content",
                       "option values": "check_option_values", "property names": "check_property_names",
                       "placement quantities": "check_placement_quantities",
                       "attachments without options": "check_attachments_have_options"}
LOCAL_PASSES = tuple(_LOCAL_PASS_METHODS)[:-1]  # the last is 1.9's only


def dtd_id_entries(section) -> tuple[tuple[tuple[str, int, str, bool], ...], ...]:
    """The IDs 1.9's DTD declares in one top-level section, per tag of _DTD_IDS (in its order): each
    (tag, the element's place among the section's ID-declaring elements, the value, whether it is an
    XML name), in document order: what check_dtd_ids reads of the section, without its elements."""
    per_tag: dict[str, list[tuple[str, int, str, bool]]] = {tag: [] for tag in _DTD_IDS}
    if isinstance(section.tag, str):
        for number, element in enumerate(section.iter(*_DTD_IDS)):
            value = element.get(_DTD_IDS[element.tag])
            if value is not None:
                per_tag[element.tag].append((element.tag, number, value, _XML_NAME.match(value) is not None))
    return tuple(tuple(found) for found in per_tag.values())


class _Reports:
    """The local passes' findings, section by section, read out pass by pass."""

    def __init__(self, local: dict[str, list[tuple[object, list]]]):
        self.local = local

    def of(self, name: str) -> list:
        return [finding for _, found in self.local.get(name, ()) for finding in found]
