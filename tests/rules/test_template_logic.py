"""The shipped rule macros name values and lay out XML; what they compute lives in tested Python
(generator/rules/helpers.py and the modules beside it). An accumulator, a Jinja `namespace()` that
a loop adds to, is the sign of logic slipping back into a template."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.rules.macros import RULES_DIR

NAMESPACE = re.compile(r"\bnamespace\s*\(")


def namespace_uses(template: Path) -> list[int]:
    """The lines of the template that make a namespace()."""
    return [number for number, line in enumerate(template.read_text(encoding="utf-8").splitlines(), 1)
            if NAMESPACE.search(line)]


@pytest.mark.parametrize("template", sorted(RULES_DIR.glob("*.j2")), ids=lambda path: path.name)
def test_no_rule_template_accumulates_in_a_namespace(template):
    lines = namespace_uses(template)
    assert not lines, (
        f"templates/rules/{template.name}:{lines[0]}: namespace() accumulates in the template; compute the value "
        "in Python instead: a GameHelpers method (generator/rules/helpers.py, called as game.NAME) or a function "
        "of macros.template_functions(), with a unit test, and its row in the README's Macro helper API")


def test_the_check_finds_a_namespace(tmp_path):
    template = tmp_path / "x.xml.j2"
    template.write_text("{% set a = 1 %}\n{% set ns = namespace(items=[]) %}\n", encoding="utf-8")
    assert namespace_uses(template) == [2]
