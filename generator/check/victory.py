"""Victory triggers that can never fire (mixed into the checker of generator.check.validate).

Both engines fire a trigger's `victory` in one of two places (TripleA 1.9 and 2.x alike):
- with `when`: at that step, from the step's delegate, when "Use Triggers" is on
  (BaseTripleADelegate.triggerWhenTriggerAttachments reads Properties.getTriggers);
- without `when`: only in the end-round delegate, and only when "Triggered Victory" is on
  (EndRoundDelegate.start reads Properties.getTriggeredVictory, default false).
A game that leaves the property off loads and plays on; nobody ever wins by the trigger."""
from __future__ import annotations

from lxml import etree

from generator.check.checkerstate import CheckerState

TRIGGERED_VICTORY = "Triggered Victory"
USE_TRIGGERS = "Use Triggers"


def _option_named(element, name: str):
    for option in element.iter("option"):
        raw = option.get("name", "")
        if raw[:1].lower() + raw[1:] == name:
            yield option


class VictoryChecks(CheckerState):
    """Uses the checker's reporting and its `victory_options` list, filled while attachments are read."""

    def note_victory_trigger(self, element: etree._Element):
        for option in _option_named(element, "victory"):
            if option.get("value"):
                self.victory_options.append((option, any(True for _ in _option_named(element, "when"))))

    def check_victory_triggers(self, property_list):
        switched_on = _switched_on(property_list)
        for option, has_when in self.victory_options:
            needed = USE_TRIGGERS if has_when else TRIGGERED_VICTORY
            if needed in switched_on:
                continue
            trigger = option.getparent().get("name", "")
            if has_when:
                why = (f"victory trigger '{trigger}' never fires: a trigger with `when` fires only in a game "
                       f"with the property '{USE_TRIGGERS}' set to true")
            else:
                why = (f"victory trigger '{trigger}' never fires: without `when` a victory is tested at the end "
                       f"of each round, and only in a game with the property '{TRIGGERED_VICTORY}' set to true")
            self.warning("TG176", why, option,
                         f"switch the property on (a mod: change: {{properties: {{{needed}: true}}}}), or write the "
                         "rule with the `victory` macro, which does")


def _switched_on(property_list) -> set[str]:
    """The names of the properties whose value is true, as the engines read a yes/no switch."""
    on: set[str] = set()
    if property_list is None:
        return on
    for element in property_list.iterfind("property"):
        value_element = element.find("value")
        value = (value_element.text or "") if value_element is not None else element.get("value", "")
        if value.strip().lower() == "true":
            on.add(element.get("name", ""))
    return on
