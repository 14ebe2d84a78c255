"""The README's "Macro helper API" lists exactly what a macro template can call and every
type and header key the macro loader knows, each call with the parameters the code takes,
so the documentation cannot drift from the code."""
from __future__ import annotations

import inspect
import re

import jinja2.defaults
import pytest
from conftest import REPO

from generator.render.sandbox import TEXT_CHECK
from generator.rules.conditions import Conditions
from generator.rules.helpers import GameHelpers
from generator.rules.macros import (
    _DECLARATION_KEYS,
    PARAM_TYPES,
    RULES_DIR,
    macro_environment,
)

SHARED_TEMPLATES = {"c": "_common.j2", "e": "_effects.j2", "p": "_presence.j2", "s": "_stacking.j2"}
# Conditions.from_params builds the object before the template runs; templates use what it built.
NOT_FOR_TEMPLATES = {"from_params"}


def api_tables() -> dict[str, list[list[str]]]:
    """Each table of the section, by the text of its first header cell: its rows' cells."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n### Macro helper API\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    tables: dict[str, list[list[str]]] = {}
    rows = None
    for line in section.splitlines():
        if not line.startswith("|"):
            rows = None
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        if rows is None:
            rows = tables.setdefault(cells[0], [])
        elif not set(cells[0]) <= {"-", " "}:
            rows.append(cells)
    return tables


def documented_calls(table: str) -> dict[str, list[str]]:
    """`prefix.name(a, b=1)` of each row -> {name: [a, b]}."""
    calls = {}
    for cells in api_tables()[table]:
        match = re.fullmatch(r"`(?:\w+\.)?(\w+)\((.*)\)`", cells[0])
        assert match, f"not a call: {cells[0]}"
        assert cells[-1].strip("`"), f"{cells[0]} has no example"
        calls[match.group(1)] = [a.split("=")[0].strip() for a in match.group(2).split(",") if a.strip()]
    return calls


def parameters(function) -> list[str]:
    return [("*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else "") + p.name
            for p in inspect.signature(function).parameters.values() if p.name not in ("self", "cls")]


def public_methods(cls) -> dict:
    return {name: member for name, member in vars(cls).items()
            if callable(member) and not name.startswith("_") and name not in NOT_FOR_TEMPLATES}


@pytest.mark.parametrize("table, cls", [("`game.` method", GameHelpers), ("`condition.` method", Conditions)])
def test_every_method_templates_can_call_is_documented_with_its_parameters(table, cls):
    documented = documented_calls(table)
    methods = public_methods(cls)
    assert sorted(documented) == sorted(methods)
    assert {name: parameters(method) for name, method in methods.items()} == documented


def test_every_template_function_and_filter_is_documented():
    env = macro_environment(RULES_DIR)
    functions = {name: f for name, f in env.globals.items() if name not in jinja2.defaults.DEFAULT_NAMESPACE}
    assert documented_calls("function") == {name: parameters(f) for name, f in functions.items()}
    filters = set(env.filters) - set(jinja2.defaults.DEFAULT_FILTERS) - {TEXT_CHECK}
    assert sorted(documented_calls("filter")) == sorted(filters)


def test_every_macro_of_the_shared_templates_is_documented():
    documented = {}
    for cells in api_tables()["macro"]:
        alias, name, args = re.fullmatch(r"`(\w+)\.(\w+)\((.*)\)`", cells[0]).groups()
        documented[(SHARED_TEMPLATES[alias], name)] = [a.strip() for a in args.split(",") if a.strip()]
    defined = {}
    for file in SHARED_TEMPLATES.values():
        text = (RULES_DIR / file).read_text(encoding="utf-8")
        for name, args in re.findall(r"\{% macro (\w+)\((.*?)\)", text):
            defined[(file, name)] = [a.strip() for a in args.split(",") if a.strip()]
    assert documented == defined


def test_every_parameter_type_and_header_key_is_documented():
    types = {name.strip("`") for cells in api_tables()["type"] for name in cells[0].split(", ")}
    assert sorted(types) == sorted(PARAM_TYPES)
    keys = [key.strip("`") for cells in api_tables()["header key"] for key in cells[0].split(", ")]
    assert sorted(keys) == sorted(_DECLARATION_KEYS)
