"""The spec language declared once (generator/speclang/declared.py): the reader's key and
scalar checks, the editors' JSON Schema and the README's key tables all come from the
declarations, so they cannot drift apart."""
from __future__ import annotations

import functools
import json

import jsonschema
import pytest

from conftest import REPO, xml_params
from generator.builder.jsonschema import build_schema
from generator.core.diagnostics import Collector, Position
from generator.read.importer import import_xml_file
from generator.read.yamlio import load_yaml_text
from generator.speclang import declared as d
from generator.speclang.fullgame import read_game
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Section
from generator.write.yamlform import dump_game

GAME_HEAD = "info: {name: X, version: '1.0'}\n"


def _read(text: str) -> list[str]:
    collector = Collector()
    read_game(load_yaml_text(text, "spec.yaml"), "spec.yaml", collector)
    return [diagnostic.format() for diagnostic in collector.diagnostics]


def _schema_problems(data) -> list[str]:
    return [error.message for error in jsonschema.Draft7Validator(build_schema()).iter_errors(data)]


def test_readme_key_tables_are_made_from_the_declarations():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = d.readme_blocks(readme)
    for name, table in d.readme_tables().items():
        assert blocks[name] is not None, f"README has no block for {name}"
        assert blocks[name] == table, f"README's {name} table is stale: python3 -m generator.speclang.declared README.md"


def test_readme_tables_list_every_declared_key():
    tables = d.readme_tables()
    for top, table in ((d.FULL_GAME_TOP, tables["full-game keys"]), (d.MOD_TOP, tables["mod keys"])):
        for section in d.sections_of(top):
            if top is d.MOD_TOP and section.form != d.MOD and section is not top:
                continue  # the full-game table lists them
            where = "top level" if section is top else f"*{section.name}*"
            for key in section.keys:
                assert f"| {where} | `{key.name}` |" in table


@pytest.mark.parametrize("top", [d.FULL_GAME_TOP, d.MOD_TOP], ids=["full game", "mod"])
def test_every_section_declares_each_key_once_with_a_doc(top):
    for section in d.sections_of(top):
        assert len(set(section.names)) == len(section.names), section.name
        assert all(key.doc for key in section.keys), section.name


def test_every_declared_section_is_part_of_a_form():
    # A declaration no form reaches would be checked by nothing and shown nowhere.
    reached = d.sections_of(d.FULL_GAME_TOP) + d.sections_of(d.MOD_TOP)
    orphans = [name for name, value in vars(d).items()
               if isinstance(value, Section) and not any(value is section for section in reached)]
    assert orphans == []


def test_unknown_key_hint_lists_the_declared_keys_in_order():
    (problem,) = _read(GAME_HEAD + "players:\n  Germans: {zzz: 1}\n")
    assert problem == ("spec.yaml:3:13: error[TG030]: unknown key 'zzz' in player Germans\n"
                       f"  hint: allowed keys: {', '.join(d.PLAYER.names)}")


def test_a_list_where_a_single_value_is_declared_is_reported():
    # Before the declarations, any key took a list or mapping raw into the model: the XML said optional="[True,
    # False]" and only the XML schema check complained.
    text = GAME_HEAD + "players:\n  Germans: {optional: [true, false]}\n"
    assert _read(text) == ["spec.yaml:3:13: error[TG031]: optional of player Germans must be a single value, "
                           "not a list\n  hint: quote the value if it is meant as text"]
    assert _schema_problems(load_yaml_text(text, "spec.yaml")) != []


def test_a_single_value_where_one_is_declared_is_accepted_by_reader_and_schema():
    text = GAME_HEAD + "players:\n  Germans: {optional: true, defaultType: AI}\n"
    assert _read(text) == []
    assert _schema_problems(load_yaml_text(text, "spec.yaml")) == []


def test_mod_sections_are_closed_in_the_schema_as_in_the_reader():
    # The schema used to accept any key under a mod's remove:, change: and rename:; the reader never did.
    text = ("mod: {name: M, base: game.xml}\nremove:\n  conections: [[A, B]]\nchange:\n  unit: {}\n"
            "rename:\n  player: {A: B}\n")
    data = load_yaml_text(text, "mod.yaml")
    problems = _schema_problems(data)
    for key in ("conections", "unit", "player"):
        assert any(f"'{key}' was unexpected" in problem for problem in problems), (key, problems)
    collector = Collector()
    reader = SpecReader("mod.yaml", collector)
    for name, section in (("remove", d.REMOVE), ("change", d.CHANGE), ("rename", d.RENAME)):
        reader.section(data[name], section, data.position_of(name))
    assert [(x.code, x.message) for x in collector.diagnostics] == [
        ("TG030", "unknown key 'conections' in remove"), ("TG030", "unknown key 'unit' in change"),
        ("TG030", "unknown key 'player' in rename")]


def test_schema_keys_and_docs_follow_the_declarations():
    definitions = build_schema()["definitions"]
    assert list(definitions["fullGame"]["properties"]) == list(d.FULL_GAME_TOP.names)
    assert list(definitions["mod"]["properties"]) == list(d.MOD_TOP.names)
    player = definitions["fullGame"]["properties"]["players"]["additionalProperties"]
    assert list(player["properties"]) == list(d.PLAYER.names)
    assert player["properties"]["isHidden"]["description"] == d.PLAYER.key("isHidden").doc
    step = definitions["fullGame"]["properties"]["sequence"]["items"]
    assert step["required"] == ["name"]
    assert definitions["mod"]["properties"]["mod"]["required"] == ["name"]


def test_null_section_reads_as_empty():
    collector = Collector()
    section = SpecReader("spec.yaml", collector).section(None, d.PRODUCTION, Position("spec.yaml", 4, 1))
    assert section == {} and section.pos == Position("spec.yaml", 4, 1) and collector.diagnostics == []


@functools.cache
def _validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(build_schema())


@pytest.mark.parametrize("xml", xml_params())
def test_import_writes_only_what_the_declarations_allow(xml):
    # The YAML writer and the declarations are two views of one language: every real game, imported, is a spec
    # the schema made from the declarations accepts (and the reader takes without a diagnostic).
    game, _ = import_xml_file(xml)
    text = dump_game(game)
    data = load_yaml_text(text, xml.name)
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(
        json.loads(json.dumps(data)))]
    assert problems == []
    collector = Collector()
    read_game(data, xml.name, collector)
    assert [diagnostic.format() for diagnostic in collector.diagnostics] == []


def test_list_form_entries_check_their_declared_keys():
    # These keys used to be dropped without a word: the variable, frontier and category came out empty.
    text = (GAME_HEAD + "variables:\n  - {name: V, elements: [a], element: [b]}\nproduction:\n  frontiers:\n"
            "    - {name: F, rule: [x]}\ntechnology:\n  playerTech:\n    Germans:\n      - {name: Land, tech: [a]}\n")
    assert _read(text) == [
        "spec.yaml:3:30: error[TG030]: unknown key 'element' in variable V\n  hint: did you mean 'elements'?",
        "spec.yaml:6:17: error[TG030]: unknown key 'rule' in productionFrontier F\n  hint: did you mean 'rules'?",
        "spec.yaml:10:22: error[TG030]: unknown key 'tech' in category Land\n  hint: did you mean 'techs'?"]
    assert len(_schema_problems(load_yaml_text(text, "spec.yaml"))) == 3
