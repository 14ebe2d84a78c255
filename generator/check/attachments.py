"""The attachment part of the semantic checks (generator.check.validate): attachment elements as
the engine creates them (legacy spellings, foreach templates), their classes, names and
options, option values by the catalog's grammars, and references between attachments, which
the engine resolves in document order.

AttachmentChecks is one part of the checker in generator.check.validate, which supplies the
reporting, the name index and the pass over the document."""
from __future__ import annotations


from lxml import etree

from generator.check import numbers
from generator.catalog import AttachmentClass, OptionSpec
from generator.catalog.grammar import Problem, java_int
from generator.check.checkerstate import Attachment, CheckerState
from generator.core.diagnostics import closest
from generator.core.enginename import EngineName

_DEFAULT_TYPE = "unitType"
# Attachment types and the reference kind their attachTo names.
_TYPE_KINDS = {
    "unitType": "unit", "territory": "territory", "resource": "resource", "player": "player",
    "relationship": "relType", "territoryEffect": "effect", "technology": "tech",
}
_ATTACHMENT_CLASS_OF_KIND = {"condition": ("RulesAttachment", "player"),
                             "trigger": ("TriggerAttachment", "player"),
                             "support": ("UnitSupportAttachment", "unitType")}


def _decapitalize(name: str) -> str:
    return name[:1].lower() + name[1:]


class AttachmentChecks(CheckerState):
    """Mixed into the checker of generator.check.validate, whose state and reporting it uses."""

    def attachment_elements(self):
        """(element, legacy spelling?) for every attachment. Features 1.9 lacks are
        reported here and then checked as meant, so that one cause gives one report."""
        lists = [child for child in self.root if child.tag in ("attachmentList", "attatchmentList")]
        for attachment_list in lists:
            legacy_list = attachment_list.tag == "attatchmentList"
            if legacy_list and self.engine == EngineName.V1_9:
                self.error("TG104", "1.9 ignores <attatchmentList> (legacy spelling): all "
                           f"{len(attachment_list)} attachments in it are lost", attachment_list,
                           "write <attachmentList> and <attachment>")
            for element in attachment_list:
                if element.tag == "attatchment":
                    if self.engine == EngineName.V1_9 and not legacy_list:
                        self.error("TG104", "1.9 ignores <attatchment> (legacy spelling): this attachment is lost",
                                   element, "write <attachment>")
                    yield element, True
                elif element.tag == "attachment":
                    yield element, legacy_list

    def expand(self, element, legacy: bool) -> list[Attachment]:
        """The attachments the engine makes of one element (several for foreach)."""
        attach_to = element.get("attachTo")
        if attach_to is None:
            attach_to = element.get("attatchTo")
            if attach_to is not None:
                if self.engine == EngineName.V1_9 and not legacy:
                    self.error("TG104", "1.9 does not read attatchTo (legacy spelling)", element, "write attachTo")
                legacy = True
        if attach_to is None:
            self.error("TG144", "attachment has no attachTo", element, "name the object it belongs to")
            return []
        # the current engine corrects the legacy spelling inside names too
        fix = self.engine == EngineName.CURRENT or legacy
        name = element.get("name", "")
        java_class = element.get("javaClass", "")
        kind = element.get("type") or _DEFAULT_TYPE
        foreach = element.get("foreach")
        if foreach is None or not foreach.strip():
            return [Attachment(element, _fix_name(name, fix), attach_to, java_class, kind, legacy=legacy)]
        if self.engine == EngineName.V1_9:
            self.error("TG104", "1.9 ignores foreach; this template would be created once, literally",
                       element, "expand the template for 1.9 (triplea-gen does this when building)")
        return [Attachment(element, _fix_name(_substitute(name, combination), fix), _substitute(attach_to, combination),
                            java_class, kind, combination, legacy, index)
                for index, combination in enumerate(self.foreach_combinations(foreach, element))]

    def foreach_combinations(self, foreach, element) -> list[dict]:
        groups = foreach.split("^")
        if len(groups) > 2:
            self.error("TG190", f"foreach '{foreach}' has more than one '^'", element,
                       "use at most one ^ (outer^inner)")
            return []
        walks = []
        for group in groups:
            names = group.split(":")
            unknown = [n for n in names if n not in self.variables]
            if unknown:
                self.error("TG190", f"foreach names unknown variable {unknown[0]!r}", element,
                           closest(unknown[0], self.variables) or "declare it in <variableList> as "
                           "<variable name=\"X\"> and write $X$")
                return []
            lengths = {len(self.variables[n]) for n in names}
            if len(lengths) > 1:
                self.error("TG190", f"foreach '{group}' walks variables of different lengths", element,
                           "variables walked in lockstep (a:b) need the same number of elements")
                return []
            size = lengths.pop()
            walks.append([{"@" + n.strip("$") + "@": self.variables[n][i] for n in names} for i in range(size)])
        if len(walks) == 1:
            return walks[0]
        return [{**inner, **outer} for outer in walks[0] for inner in walks[1]]

    def check_attachments(self):
        attachments = []
        for element, legacy in self.attachment_elements():
            attachments.extend(self.expand(element, legacy))
        for attachment in attachments:
            self.first_element.setdefault(attachment.name, attachment.element)
        for attachment in attachments:
            self.check_attachment(attachment)

    def check_attachment(self, attachment: Attachment):
        catalog = self.catalog
        element = attachment.element
        # legacy-spelled attachments are reported once; their class is read as the current engine would
        cls = catalog.attachment_class(attachment.java_class, "current" if attachment.legacy else self.engine)
        if cls is None:
            simple = attachment.java_class.rpartition(".")[2]
            if self.engine == EngineName.V1_9 and simple in catalog.classes:
                self.error("TG103", f"1.9 needs the full attachment class name, not '{attachment.java_class}'",
                           element, f'write javaClass="{catalog.attachment_package}.{simple}"')
                cls = catalog.classes[simple]  # check the rest as meant, to avoid follow-on reports
            else:
                self.error("TG140", f"unknown attachment class '{attachment.java_class}'", element,
                           closest(simple, catalog.classes) or "use one of the 13 TripleA attachment classes")
                return
        kind = _TYPE_KINDS.get(attachment.type)
        if kind is None:
            return  # the schema reports the bad type
        if attachment.attach_to not in self.names[kind]:
            self.unknown(kind, attachment.attach_to, element, f"attachTo of '{attachment.name}'")
            return
        if cls.type != attachment.type:
            self.warning("TG144", f"{cls.name} '{attachment.name}' is attached to a {attachment.type}; the engine "
                         f"only looks for it on a {cls.type}", element,
                         f'write type="{cls.type}" and attach it to a {cls.type}')
        elif not cls.name_fits(attachment.name):
            self.warning("TG145", f"{cls.name} '{attachment.name}' is ignored by the engine: it must be "
                         f"{cls.name_rule()}", element, "rename the attachment")
        key = (attachment.type, attachment.attach_to, attachment.name)
        if key in self.attached:
            self.warning("TG146", f"'{attachment.attach_to}' already has an attachment named "
                         f"'{attachment.name}' (line {self.attached[key].sourceline}); the engine keeps only "
                         "the later one", element, "merge the two or rename one")
        self.attached[key] = element
        # registered before its options: the engine adds the attachment first
        self.defined.setdefault(attachment.name, []).append((cls.name, attachment.type))
        if cls.name == "RulesAttachment" and attachment.name != "rulesAttachment" \
                and not attachment.name.startswith("objectiveAttachment"):
            self.conditions.setdefault(attachment.name, element)
        self.current, self.current_class = attachment, cls.name
        reports_before = len(self.out.diagnostics)
        self.check_options(attachment, cls)
        self.current = self.current_class = None
        option_errors = any(d.severity == "error" for d in self.out.diagnostics[reports_before:])
        if cls.name == "UnitAttachment" and not option_errors:
            # (the engine stops at a bad option before it validates the unit: one cause, one report)
            self.check_unit_kind(attachment, cls)
        if cls.name == "TriggerAttachment":
            self.note_victory_trigger(element)
        if cls.name == "TriggerAttachment" and self.engine == EngineName.V1_9 and not any(
                _decapitalize(o.get("name", "")) in ("conditions", "trigger") for o in element.iter("option")):
            # ("trigger" is the legacy spelling of "conditions")
            # seen in play: 1.9 tests a trigger's conditions before firing it, and none counts as "not met"
            self.warning("TG156", f"trigger '{attachment.name}' has no conditions: the 1.9 engine never fires it",
                         element, "add conditions: naming a condition that holds, e.g. one with rounds: 1-+")

    def check_options(self, attachment: Attachment, cls: AttachmentClass):
        engine = self.engine
        current = engine == EngineName.CURRENT
        foreach = attachment.foreach
        empty_foreach = [k for k, v in foreach.items() if not v]
        targets: dict[str, tuple[str, str]] = {}  # group -> (class, name) chosen by <group>AttachmentName
        given: dict[str, etree._Element] = {}  # options that do not add up, by name
        for option in attachment.element:
            if option.tag != "option":
                continue
            raw_name, value = option.get("name"), option.get("value")
            if raw_name is None or value is None:
                continue  # the schema reports it
            resolved = self.option_cache.get((cls.name, raw_name))
            if resolved is None:
                resolved = self.option_cache[(cls.name, raw_name)] = self.resolve_option(cls, raw_name)
            name, spec = resolved
            if current:
                dropped = self.catalog.dropped_options.get(name.lower())
                if dropped is not None and (dropped == "any" or value in dropped):
                    continue
            if spec is None or spec.rejected:
                self.unknown_option(cls, raw_name, name, spec, option, attachment)
                continue
            if not spec.repeats:
                earlier = given.get(name)
                if earlier is not None and attachment.copy == 0:
                    self.warning("TG155", f"option '{name}' is given twice in '{attachment.name}' (line "
                                 f"{earlier.sourceline}); only the later value counts", option,
                                 "remove one of them")
                given[name] = option
            count = option.get("count")
            full = f"{count}:{value}" if count else value
            if foreach:
                if any(key in full for key in empty_foreach):
                    continue
                full = _substitute(full, foreach)
            if "$" in full and self.variables:
                if not current and any(key in full for key in self.variables):
                    self.error("TG104", f"1.9 does not substitute variables in '{full}'", option,
                               "write the values out for 1.9")
                full = self.substitute_variables(full)
            if current:
                if name == "victoryCity" and full.lower() in ("true", "false"):
                    full = "1" if full.lower() == "true" else "0"
                elif name == "conditionType" and full.upper() == "XOR":
                    full = "1"
                elif name == "conditions" and "::" in f":{full}:":
                    # the current engine skips blank names in a conditions list (AbstractConditionsAttachment)
                    full = ":".join(part for part in full.split(":") if part.strip())
                    if not full:
                        continue
            self.check_value(spec, name, full, option, attachment, cls, targets)

    def check_unit_kind(self, attachment: Attachment, cls: AttachmentClass):
        """UnitAttachment.validate of each engine: an air, sea or land unit may not have some
        options set; the engine refuses the game when it does ("... units cannot have certain
        properties")."""
        final: dict[str, str] = {}
        for option in attachment.element:
            if option.tag == "option" and option.get("name") is not None and option.get("value") is not None:
                final[self.resolve_option(cls, option.get("name"))[0]] = option.get("value")
        kind = "air" if _is_set("isAir", final.get("isAir")) else \
            "sea" if _is_set("isSea", final.get("isSea")) else "land"
        forbidden = [name for name in _UNIT_KIND_FORBIDS[self.engine][kind] if _is_set(name, final.get(name))]
        if forbidden:
            self.error("TG106", f"{kind} units cannot have {', '.join(forbidden)} (unit '{attachment.attach_to}'): "
                       f"the {self.engine} engine refuses the game", attachment.element,
                       f"remove {forbidden[0]} from this unitAttachment"
                       + ("" if kind != "land" else ", or make the unit isAir or isSea"))

    def resolve_option(self, cls: AttachmentClass, raw_name: str) -> tuple[str, OptionSpec | None]:
        name = _decapitalize(raw_name)
        if self.engine == EngineName.CURRENT:
            name = self.catalog.legacy_option_names.get(name.lower(), name)
        return name, cls.option(name, self.engine)

    def unknown_option(self, cls, raw_name, name, spec, element, attachment):
        where = f"{cls.name} '{attachment.name}'"
        if spec is not None and spec.rejected:
            self.error("TG142", f"option '{raw_name}' of {where}: {spec.rejected}", element, "remove the option")
            return
        other = "1.9" if self.engine == EngineName.CURRENT else "current"
        in_other = cls.options.get(name)
        if in_other is not None and other in in_other.engines:
            hint = in_other.note or f"remove it, or target the {other} engine"
            self.error("TG142", f"option '{raw_name}' of {where} exists only in the {other} engine", element, hint)
            return
        if name in cls.read_only:
            self.error("TG142", f"option '{raw_name}' of {where} is read-only", element,
                       "the engine computes it; remove the option")
            return
        lowered = name.lower()
        if lowered in self.catalog.dropped_options:
            self.error("TG142", f"unknown option '{raw_name}' for {where}", element,
                       "only the current engine accepts (and ignores) this old option; remove it")
            return
        renamed = self.catalog.legacy_option_names.get(lowered)
        if renamed and renamed in cls.options:
            self.error("TG142", f"unknown option '{raw_name}' for {where}", element,
                       f"an old name that only the current engine maps to '{renamed}'; write {renamed}")
            return
        self.error("TG142", f"unknown option '{raw_name}' for {where}", element,
                   closest(name, cls.option_names(self.engine))
                   or f"see the {cls.name} options in generator/catalog/attachments.yaml")

    def substitute_variables(self, text: str) -> str:
        for key, values in self.variables.items():
            if key in text:
                text = text.replace(key, ":".join(values))
        return text

    def check_value(self, spec: OptionSpec, name, full, element, attachment, cls, targets):
        if not full:
            if spec.empty_ok or spec.grammar in ("text", "@propertyChange"):
                return
            self.error("TG143", f"option '{name}' of {cls.name} '{attachment.name}' has an empty value", element,
                       "give a value or remove the option")
            return
        if name in ("conditions", "trigger"):
            self.mentioned.update(full.split(":"))  # a use, even if it is broken
        problems = spec.checker(self.engine)(full, self)
        for problem in problems:
            self.report(problem.severity, problem.code,
                        f"{problem.message} (option '{name}' of {cls.name} '{attachment.name}')",
                        element, problem.hint)
        if problems:
            return
        if spec.range is not None:
            number = java_int(full)
            low, high = spec.range
            if number is not None and ((low is not None and number < low) or (high is not None and number > high)):
                bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
                self.error("TG143", f"option '{name}' of {cls.name} '{attachment.name}' must be {bounds}, "
                           f"not {number}", element, f"write a number {bounds}")
        if spec.sensible is not None:
            self.check_sensible(spec.sensible, f"option '{name}' of {cls.name} '{attachment.name}' on "
                                f"'{attachment.attach_to}'", full, element)
        self.note_option(spec, name, full, element, attachment, cls, targets)

    def check_sensible(self, sensible, what: str, value: str, element) -> None:
        """TG162 (warning) or TG163 (error, where the game breaks): a number the engines load but
        make something else of."""
        number = java_int(value)
        if number is None:
            return
        if self.bounds is None:
            self.bounds = numbers.game_bounds(self.root)
        found = numbers.outside(sensible, number, self.bounds)
        if found is not None:
            where, meaning = found
            code = "TG163" if sensible.severity == "error" else "TG162"
            self.report(sensible.severity, code, f"{what} is {number}, {where}: {meaning}", element,
                        numbers.expected(sensible, self.bounds))

    def note_option(self, spec, name, full, element, attachment, cls, targets):
        """Remember what later checks need: capitals, hit points, references, keys."""
        if spec.target:
            if spec.grammar == "@attachmentName":
                attachment_name, _, class_name = full.partition(":")
                targets[spec.target] = (class_name, attachment_name)
                self.mentioned.add(attachment_name)
            else:
                self.check_property_change(spec, name, full, element, attachment, targets)
            return
        if cls.name == "TerritoryAttachment" and name == "capital":
            self.capitals.add(full)
        elif cls.name == "UnitAttachment" and attachment.type == "unitType":
            if name == "artillery" and full.lower() == "true":
                # the engine creates this support attachment on the spot
                support = f"supportAttachmentArtyOld{attachment.attach_to}"
                self.defined.setdefault(support, []).append(("UnitSupportAttachment", "unitType"))
            elif name == "hitPoints":
                self.unit_hit_points[attachment.attach_to] = int(full)
            elif name == "isTwoHit":
                self.unit_hit_points[attachment.attach_to] = 2 if full.lower() == "true" else 1
        elif name == "gameProperty":
            self.game_property_uses.append((full, element))

    def check_property_change(self, spec, name, full, element, attachment, targets):
        """A trigger's <group>Property: the last field names an option of the target
        attachment; the engine only finds out when the trigger fires."""
        parts = full.split(":")
        for part in parts:
            self.mentioned.add(part.replace("-reset-", "").replace("-clear-", ""))
        property_name = parts[-1]
        group = self.catalog.property_targets[spec.target]
        class_name, _ = targets.get(spec.target, group["default"])
        target = self.catalog.classes.get(class_name)
        if target is None:
            return
        target_spec = target.option(property_name, self.engine)
        if target_spec is None or target_spec.rejected:
            self.warning("TG149", f"{name} changes '{property_name}', which {class_name} does not have; "
                         f"the trigger fails when it fires (trigger '{attachment.name}')", element,
                         closest(property_name, target.option_names(self.engine))
                         or f"name an option of {class_name} (names are used exactly as written)")
        elif target_spec.write_only:
            self.warning("TG149", f"{name} changes '{property_name}', which can only be set in XML, not by "
                         f"a trigger (trigger '{attachment.name}')", element,
                         "change the options it stands for instead")

    # Resolver protocol (grammar.Resolver): attachment references.
    def attachment(self, kind: str, name: str) -> Problem | None:
        wanted_class, wanted_type = _ATTACHMENT_CLASS_OF_KIND[kind]
        current = self.current
        if kind == "trigger" and current is not None and name == current.name \
                and self.current_class == "TriggerAttachment":
            return Problem("TG132", f"trigger '{name}' activates itself", "the engine refuses this")
        defined = self.defined.get(name)
        if defined:
            if any(c == wanted_class and t == wanted_type for c, t in defined):
                return None
            return Problem("TG132", f"'{name}' is a {defined[0][0]}, not a {wanted_class}",
                           f"name a {wanted_class} here")
        later = self.first_element.get(name)
        if later is not None:
            line = later.sourceline
            return Problem("TG131", f"{kind} '{name}' is used before it is defined (line {line})",
                           "move its attachment above this one: the engine resolves names in document order")
        candidates = [n for n, defs in self.defined.items() if any(c == wanted_class for c, _ in defs)]
        return Problem("TG130", f"unknown {kind} '{name}'",
                       closest(name, candidates) or f"define the {wanted_class} before using it")


# UnitAttachment.validate: what each kind of unit may not have, per engine (1.9 from triplea.jar,
# the current engine from its source). Numbers count as set unless -1 (isMarine: unless 0).
_UNIT_KIND_FORBIDS = {
    "1.9": {
        "air": ("isSea", "isSub", "transportCost", "carrierCapacity", "canBlitz", "canBombard", "isMarine",
                "isInfantry", "isLandTransport", "isAirTransportable", "isCombatTransport"),
        "sea": ("canBlitz", "isAir", "isStrategicBomber", "carrierCost", "transportCost", "isMarine", "isInfantry",
                "isLandTransport", "isAirTransportable", "isAirTransport", "isKamikaze"),
        "land": ("canBombard", "isStrategicBomber", "isSub", "carrierCapacity", "bombard", "transportCapacity",
                 "isAirTransport", "isCombatTransport", "isKamikaze"),
    },
    "current": {
        "air": ("isSea", "transportCost", "carrierCapacity", "canBlitz", "canBombard", "isMarine",
                "isLandTransportable", "isLandTransport", "isAirTransportable", "isCombatTransport"),
        "sea": ("canBlitz", "isStrategicBomber", "carrierCost", "transportCost", "isMarine", "isLandTransportable",
                "isLandTransport", "isAirTransportable", "isAirTransport", "isKamikaze"),
        "land": ("canBombard", "carrierCapacity", "bombard", "isAirTransport", "isCombatTransport", "isKamikaze"),
    },
}


def _is_set(name: str, value: str | None) -> bool:
    """Whether the engine's field differs from its default: false for flags, -1 for numbers, 0 for isMarine."""
    if value is None:
        return False
    lowered = value.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    number = java_int(value.strip())
    return number is not None and number != (0 if name == "isMarine" else -1)


def _fix_name(name: str, fix: bool) -> str:
    return name.replace("ttatchment", "ttachment") if fix and "ttatchment" in name else name


def _substitute(text: str, combination: dict) -> str:
    for key, value in combination.items():
        if key in text:
            text = text.replace(key, value)
    return text
