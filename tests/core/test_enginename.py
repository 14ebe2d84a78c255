"""The engines are declared once (generator/core/enginename.py): no module compares an engine with a
string of its own or declares the list again, and the names still read and print as users type them."""
from __future__ import annotations

import ast
from pathlib import Path

from generator.catalog import normalise_engine
from generator.core.enginename import ENGINE_NAMES, EngineName

PACKAGE = Path(__file__).resolve().parents[2] / "generator"


def test_the_names_are_the_words_users_type():
    assert ENGINE_NAMES == ("1.9", "current")
    assert EngineName("1.9") is EngineName.V1_9 and f"{EngineName.CURRENT}" == "current"
    assert EngineName.V1_9 == "1.9" and EngineName.V1_9.other is EngineName.CURRENT
    assert normalise_engine("1.9.0.0.7062") is EngineName.V1_9 and normalise_engine("2.x") is EngineName.CURRENT


def test_no_module_compares_an_engine_with_a_string_or_lists_the_engines_again():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn))
                                                     for op in node.ops):
                parts = [node.left, *node.comparators]
                parts += [e for p in parts if isinstance(p, (ast.Tuple, ast.List, ast.Set)) for e in p.elts]
                if any(isinstance(part, ast.Constant) and part.value in ENGINE_NAMES for part in parts):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: compares with a string")
            if isinstance(node, ast.Tuple) and [getattr(e, "value", None) for e in node.elts] == list(ENGINE_NAMES):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: lists the engines again")
    assert not found, "\n".join(found)
