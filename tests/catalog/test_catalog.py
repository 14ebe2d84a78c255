"""The catalog of attachment options, game properties and game-play facts
(generator/catalog): complete, consistent, and in agreement with the engines."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import ENGINE_JAR, requires_shared
from generator.catalog import ENGINES, load_catalog, normalise_engine
from generator.catalog.grammar import Problem, compile_grammar, java_int, validate_grammar
from reference import ATTACHMENTS, attachment_option_counts, current_attachment_options

CLASSES = ("UnitAttachment", "TerritoryAttachment", "CanalAttachment", "PlayerAttachment", "RulesAttachment",
           "TriggerAttachment", "PoliticalActionAttachment", "UserActionAttachment", "TechAttachment",
           "TechAbilityAttachment", "UnitSupportAttachment", "RelationshipTypeAttachment", "TerritoryEffectAttachment")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_all_thirteen_classes(catalog):
    assert set(catalog.classes) == set(CLASSES)


def test_option_counts_equal_the_reference(catalog):
    """attachments.md §1.7 counts the options per class and engine; the counts are read from
    there, so adding an option to the catalog touches no number in this file."""
    if not ATTACHMENTS.is_file():
        pytest.skip("../shared/reference is not present")
    counts = attachment_option_counts()
    assert set(counts) == set(CLASSES)
    for name, expected in counts.items():
        options = catalog.classes[name].options.values()
        ours = tuple(sum(engine in spec.engines for spec in options) for engine in ("current", "1.9"))
        assert ours == expected, name


def test_every_grammar_is_well_formed(catalog):
    for cls in catalog.classes.values():
        for spec in cls.options.values():
            for grammar in (spec.grammar, spec.grammar_19):
                for form in (grammar if isinstance(grammar, tuple) else (grammar,)):
                    validate_grammar(form)


def test_every_option_has_engines_and_consistent_flags(catalog):
    for cls in catalog.classes.values():
        assert cls.type in ("unitType", "territory", "player", "relationship", "territoryEffect", "technology")
        assert cls.exact_name or cls.prefixes
        for name, spec in cls.options.items():
            assert spec.engines and spec.engines <= set(ENGINES), (cls.name, name)
            assert set(spec.checkers) == set(ENGINES)
            if spec.range is not None:
                assert spec.grammar == "int", (cls.name, name)
            if spec.target:
                assert spec.target in catalog.property_targets


def test_legacy_names_map_to_real_options(catalog):
    for old, new in catalog.legacy_option_names.items():
        assert any(new in cls.options and "current" in cls.options[new].engines for cls in catalog.classes.values()), old
    units = catalog.classes["UnitAttachment"]
    assert units.option("isInfantry", "1.9") is not None and units.option("isInfantry", "current") is None
    assert units.option("isLandTransportable", "current") is not None and units.option("isLandTransportable", "1.9") is None


def test_property_targets_name_real_classes(catalog):
    for group, target in catalog.property_targets.items():
        assert target["default"][0] in catalog.classes
        for class_name in target["classes"]:
            assert class_name in catalog.classes, (group, class_name)


def test_modern_only_and_1_9_only_options_match_the_reference(catalog):
    only_current = {(c.name, n) for c in catalog.classes.values() for n, s in c.options.items()
                    if s.engines == {"current"}}
    assert ("UnitAttachment", "canNotTarget") in only_current
    assert ("RulesAttachment", "isAI") in only_current
    assert ("PoliticalActionAttachment", "costResources") in only_current
    assert ("TerritoryEffectAttachment", "movementCostModifier") in only_current
    only_19 = {(c.name, n) for c in catalog.classes.values() for n, s in c.options.items() if s.engines == {"1.9"}}
    assert only_19 == {("UnitAttachment", "isInfantry"), ("UnitAttachment", "isMechanized"),
                       ("UnitAttachment", "isParatroop")}


@requires_shared
def test_catalog_names_equal_the_reference_index(catalog):
    """attachments.md §5 lists every option per class and engine; so must we."""
    documented_options = current_attachment_options()
    assert set(documented_options) == set(CLASSES)
    for name, documented in documented_options.items():
        ours = {n for n, s in catalog.classes[name].options.items() if "current" in s.engines}
        assert ours == documented, name


@pytest.mark.skipif(not (ENGINE_JAR.is_file() and shutil.which("javap")), reason="needs the 1.9 jar and javap")
def test_1_9_options_equal_the_setters_in_the_1_9_jar(catalog):
    """1.9 calls set<Option>(String) by reflection: its options are exactly those methods."""
    package = "games.strategy.triplea.attachments"
    bases = {"RulesAttachment": ["AbstractPlayerRulesAttachment", "AbstractRulesAttachment",
                                 "AbstractConditionsAttachment"],
             "TriggerAttachment": ["AbstractTriggerAttachment", "AbstractConditionsAttachment"],
             "PoliticalActionAttachment": ["AbstractUserActionAttachment", "AbstractConditionsAttachment"],
             "UserActionAttachment": ["AbstractUserActionAttachment", "AbstractConditionsAttachment"]}
    classes = sorted(catalog.classes)
    names = [f"{package}.{c}" for c in classes] + [f"{package}.{b}" for bs in bases.values() for b in bs]
    output = subprocess.run(["javap", "-public", "-cp", str(ENGINE_JAR), *sorted(set(names))],
                            capture_output=True, text=True, check=True).stdout
    setters: dict[str, set[str]] = {}
    current = None
    for line in output.splitlines():
        header = re.search(rf"class {re.escape(package)}\.(\w+)", line)
        if header:
            current = header.group(1)
            setters[current] = set()
        match = re.search(r"void set(\w+)\(java\.lang\.String\)", line)
        if match and current:
            setters[current].add(match.group(1)[0].lower() + match.group(1)[1:])
    for name in classes:
        expected = set(setters[name]).union(*(setters[b] for b in bases.get(name, [])))
        ours = {n[0].lower() + n[1:] for n, s in catalog.classes[name].options.items() if "1.9" in s.engines}
        assert ours == expected, name


def test_properties(catalog):
    assert catalog.properties["Use Triggers"].kind == "bool"
    assert catalog.properties["Multiply PUs"].kind == "int"
    assert catalog.properties["Land Battles May Be Ignored"].engines == {"current"}
    assert catalog.properties["Rocket Attacks Per Factory Infinite"].engines == {"1.9"}
    assert all(spec.kind in ("bool", "int", "string") for spec in catalog.properties.values())
    assert all(pattern.startswith("{") for pattern in catalog.property_patterns)
    assert catalog.renamed_properties["units repair at end of round"] == "Units Repair Hits End Turn"


def test_delegates(catalog):
    assert len(catalog.delegates) == 18
    assert catalog.delegate("games.strategy.triplea.delegate.MoveDelegate", "1.9") is not None
    assert catalog.delegate("MoveDelegate", "current") is not None
    assert catalog.delegate("MoveDelegate", "1.9") is None
    assert catalog.delegate("games.strategy.twoIfBySea.delegate.InitDelegate", "1.9") is not None


def test_attachment_class_lookup_follows_the_engine(catalog):
    full = "games.strategy.triplea.attachments.UnitAttachment"
    assert catalog.attachment_class(full, "1.9").name == "UnitAttachment"
    assert catalog.attachment_class("UnitAttachment", "1.9") is None
    assert catalog.attachment_class("UnitAttachment", "current").name == "UnitAttachment"
    assert catalog.attachment_class("any.package.UnitAttachment", "current").name == "UnitAttachment"


def test_catalog_is_loaded_once():
    assert load_catalog() is load_catalog()


@pytest.mark.parametrize("text,engine", [("1.9", "1.9"), ("1.9.0.0.7062", "1.9"), ("current", "current"),
                                         ("modern", "current")])
def test_engine_names(text, engine):
    assert normalise_engine(text) == engine


def test_unknown_engine_name():
    with pytest.raises(ValueError):
        normalise_engine("2.7")


# ---------------------------------------------------------------- the value grammar


class Names:
    """A stand-in for the validator: a few declared names, attachments never found."""

    names = {"unit": {"infantry", "armour"}, "territory": {"Alpha", "Beta"}, "player": {"Reds", "Neutral"},
             "resource": {"PUs"}, "relType": {"war"}, "effect": {"forest"}, "tech": {"jetPower"},
             "frontier": {"production"}, "rule": {"buyInfantry"}, "step": {"redsPurchase"}}

    def attachment(self, kind, name):
        return None if name.startswith("ok") else Problem("TG130", f"unknown {kind} '{name}'")


def run(grammar, value):
    return [(p.code, p.message) for p in compile_grammar(grammar)(value, Names())]


@pytest.mark.parametrize("grammar,value", [
    ("int", "-3"), ("int", "+7"), ("bool", "TRUE"), ("int>=0:resource", "2:PUs"), ("unit+", "infantry:armour"),
    ("int?:territory:unit+", "Alpha:infantry"), ("int?:territory:unit+", "3:Alpha:infantry:armour"),
    ("int:owned|allied|total", "2:OWNED"), ("any|player:any|player:bool:(unit:int)+", "any:Reds:true:infantry:1:armour:2"),
    ("player:player:anyWar|relType:int?", "Reds:Reds:anyWar"), ("player:player:anyWar|relType:int?", "Reds:Reds:war:3"),
    ("frontier:-rule", "production:-buyInfantry"), ("-support+", "okSupport:-okOther"), ("before|after:step", "before:redsPurchase"),
    ("rounds+", "1:3-5:7-+"), ("condType", "2-3"), ("condType", "or"), ("chance", "1:6"), ("decimal:unit+", "-0.5:armour"),
    ("BY|FROM?:player+", "FROM:Reds"), ("BY|FROM?:player+", "Reds:Neutral"), ("territory|effect+", "Alpha:forest"),
    ("@conditionTerritories", "each:Alpha:Beta"), ("@conditionTerritories", "2:original"), ("@conditionTerritories", ""),
    (("name", "int:name"), "2:hulls"), (("default", "int:flat|percentage?"), "default"), ("text", "a:b:c"),
])
def test_grammar_accepts(grammar, value):
    assert run(grammar, value) == []


@pytest.mark.parametrize("grammar,value,expected", [
    ("int", "1.5", [("TG143", "'1.5' is not a whole number")]),
    ("int", "2147483648", [("TG143", "'2147483648' is not a whole number")]),
    ("int>=1:unit", "0:infantry", [("TG143", "0 is less than 1")]),
    ("bool", "yes", [("TG143", "'yes' is not true or false")]),
    ("unit+", "infantry:armor", [("TG122", "unknown unit type 'armor'")]),
    ("int?:territory:unit+", "x:Alpha:infantry", [("TG120", "unknown territory 'x'")]),
    ("int:owned|allied|total", "2:mine", [("TG143", "'mine' is not 'owned' or 'allied' or 'total'")]),
    ("int:owned|allied|total", "2", [("TG143", "'2' has too few fields; expected the form int:owned|allied|total")]),
    ("int:resource", "2:PUs:x", [("TG143", "'2:PUs:x' has more fields than allowed; expected the form int:resource")]),
    ("any|player:any|player:bool:(unit:int)+", "any:Reds:true:infantry",
     [("TG143", "'any:Reds:true:infantry' has the wrong number of fields; expected the form "
                "any|player:any|player:bool:(unit:int)+")]),
    ("player:player:anyWar|relType:int?", "Reds:Reds:peace", [("TG124", "unknown relationship type 'peace'")]),
    ("player:player:anyWar|relType:int?", "Reds:Reds:war:x", [("TG143", "'x' is not a whole number")]),
    ("frontier:-rule", "production:-buyTank", [("TG129", "unknown production rule 'buyTank'")]),
    ("-support+", "okSupport:-missing", [("TG130", "unknown support 'missing'")]),
    ("before|after:step", "before:bluesPurchase", [("TG150", "no step named 'bluesPurchase'; this never happens")]),
    ("rounds+", "1:x-3", [("TG143", "'x-3' is not a round (n, a-b or a-+)")]),
    ("condType", "3-2", [("TG143", "conditionType range '3-2' must have its second number greater")]),
    ("chance", "7:6", [("TG143", "chance '7:6' needs 0 <= x <= y <= 120")]),
    ("@conditionTerritories", "1:Alpha:Gamma", [("TG120", "unknown territory 'Gamma'")]),
    ("@conditionTerritories", "Alpha:original:Nowhere", []),  # the engine stops at a group keyword
    (("default", "int:flat|percentage?"), "x", [("TG143", "'x' matches none of the forms default | int:flat|percentage?")]),
])
def test_grammar_rejects(grammar, value, expected):
    assert run(grammar, value) == expected


def test_soft_references_are_warnings():
    (problem,) = compile_grammar("before|after:step")("after:nothing", Names())
    assert problem.severity == "warning"


@pytest.mark.parametrize("bad", ["int:", "unit+:int", "(unit:int):bool", "in t", "int|", "@nothing"])
def test_malformed_grammars_are_refused(bad):
    with pytest.raises(ValueError):
        validate_grammar(bad)


@pytest.mark.parametrize("text,value", [("0", 0), ("-2147483648", -2 ** 31), ("+12", 12), ("2147483648", None),
                                        (" 1", None), ("1_000", None), ("", None), ("٣", None)])
def test_java_int(text, value):
    assert java_int(text) == value
