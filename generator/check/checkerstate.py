"""What the checker mixins of the validator (attachments.py, structure.py, victory.py) share through
`self`, declared once: the state check/validate.py's _GameChecker fills in and the reporting every check
uses. Each mixin derives from CheckerState, so a name no one declares, or one used with the wrong type,
is a type error (mypy) instead of an AttributeError on some game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from generator.catalog.grammar import NAME_KINDS
from generator.core.diagnostics import Collector, LazyHint, Position, closest
from generator.core.enginename import EngineName

if TYPE_CHECKING:
    from generator.catalog import Catalog

Element = Any  # lxml.etree._Element: lxml ships no type information


@dataclass
class Attachment:
    """One attachment as the engine creates it (a foreach template yields several)."""
    element: Element
    name: str
    attach_to: str
    java_class: str
    type: str
    foreach: dict = field(default_factory=dict)  # @var@ -> value for this copy
    legacy: bool = False  # written in the legacy 'attatch' spelling (already reported for 1.9)
    copy: int = 0  # which copy of a foreach template



class CheckerState:
    root: Element
    engine: EngineName
    position_of: Callable[[Element], Position]
    catalog: Catalog
    out: Collector
    names: dict[str, set[str]]  # kind -> declared names
    variables: dict[str, list[str]]  # "$X$" -> values
    defined: dict[str, list[tuple[str, str]]]  # attachment name -> [(class, type)] so far
    first_element: dict[str, Element]  # attachment name -> its first element
    current: Attachment | None  # the attachment whose options are being checked
    current_class: str | None
    attached: dict[tuple[str, str, str], Element]  # (type, attachTo, name)
    unit_hit_points: dict[str, int]
    capitals: set[str]
    conditions: dict[str, Element]  # RulesAttachment name -> element
    mentioned: set[str]
    game_property_uses: list[tuple[str, Element]]
    victory_options: list[tuple[Element, bool]]  # (victory option, trigger has when)
    option_cache: dict[tuple[str, str], tuple]
    bounds: dict[str, int] | None  # diceSides, territories: read when first needed

    # ------------------------------------------------------------ reporting (severity: core/codes.py)

    def error(self, code: str, message: str, element: Element, hint: str | LazyHint = "") -> None:
        self.out.error(code, message, self.position_of(element), hint)

    def warning(self, code: str, message: str, element: Element, hint: str | LazyHint = "") -> None:
        self.out.warning(code, message, self.position_of(element), hint)

    def report(self, severity: str, code: str, message: str, element: Element, hint: str | LazyHint = "") -> None:
        (self.error if severity == "error" else self.warning)(code, message, element, hint)

    def unknown(self, kind: str, name: str, element: Element, context: str = "") -> None:
        code, word = NAME_KINDS[kind]
        where = f" in {context}" if context else ""
        self.error(code, f"unknown {word} '{name}'{where}", element,
                   closest(name, self.names[kind]) or f"declare the {word} first")

    # ------------------------------------------------------------ what one mixin asks of another

    def note_victory_trigger(self, element: Element) -> None:
        raise NotImplementedError  # victory.py's VictoryChecks
