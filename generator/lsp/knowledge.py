"""What the editor is told about the spec language, taken from where the build takes it: the key
declarations (generator.speclang.declared), the macro headers (generator.rules.macros), the option
catalog (generator.catalog) and the code registry (generator.core.codes). Plain text and
lists: the server (generator.lsp.server) turns them into LSP messages."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from generator.lsp.cursor import Context

if TYPE_CHECKING:  # imported where used at run time: the server starts without loading the spec package
    from generator.speclang.shapes import Section

# Keys whose values name things of the game when no macro header says (the full-game and mod forms).
_KEY_KINDS = {
    "territory": "territory", "territories": "territory", "attachTo": "territory",
    "player": "player", "players": "player", "owner": "player", "receiver": "player", "attackers": "player",
    "unit": "unit type", "units": "unit type", "unitType": "unit type",
    "resource": "resource", "step": "step", "steps": "step", "relationship": "relationship type",
}


def section_keys(path: list[str], is_mod: bool) -> list[tuple[str, str, str]]:
    """The declared keys (name, doc) allowed at a block path, or [] where none are declared."""
    from generator.speclang import declared
    from generator.speclang.shapes import Keyed, ListOf, MapOf

    # object: a kind's item is any kind (shapes declares it so), narrowed by the isinstance tests below
    kind: object = declared.MOD_TOP if is_mod else declared.FULL_GAME_TOP
    for name in path:
        section = _section_of(kind)
        if section is not None and name in section.names:
            kind = section.key(name).kind
        elif isinstance(kind, (MapOf, Keyed)):
            kind = kind.item  # the name is an entry's own name
        else:
            return []
        while isinstance(kind, ListOf):  # a block list's items add no key to the path
            kind = kind.item
    section = _section_of(kind)
    return [(key.name, key.doc, key.kind.words()) for key in section.keys] if section is not None else []


def _section_of(kind: object) -> Section | None:
    """The section a kind is, or the first section it may be (OneOf), or None."""
    from generator.speclang.shapes import OneOf, Section

    if isinstance(kind, Section):
        return kind
    if isinstance(kind, OneOf):
        for choice in kind.choices:
            if isinstance(choice, Section):
                return choice
    return None


def rule_keys():
    from generator.rules.expand import RULE_KEYS

    docs = {"id": "the rule's id, e.g. S000-R01", "text": "the rule in words, for the game notes",
            "use": "the macro that enforces the rule", "with": "the macro's parameters",
            "status": "enforced, partial or notes", "note": "what players should know"}
    return [(key, docs.get(key, "see Rules in the README"), "") for key in RULE_KEYS]


@lru_cache(maxsize=8)
def macros(extra: tuple = ()):
    from generator.rules.macros import load_macros

    return load_macros(list(extra), report=lambda error: None)


def macro_signature(macro) -> str:
    params = ", ".join(f"{name}: {param.type}" + ("" if param.required else "?")
                       for name, param in macro.params.items())
    return f"{macro.name}({params})"


def macro_hover(macro) -> str:
    lines = [f"**macro `{macro.name}`** ({macro.status})", "", macro.description, ""]
    for name, param in macro.params.items():
        default = "required" if param.required else f"default {param.default!r}"
        doc = f": {param.doc}" if param.doc else ""
        lines.append(f"- `{name}` ({param.type}, {default}){doc}")
    if macro.takes_conditions:
        lines.append("- takes the standard condition parameters")
    if macro.note:
        lines += ["", macro.note]
    return "\n".join(lines).strip()


def param_hover(macro, name: str) -> str | None:
    param = macro.params.get(name)
    if param is None:
        return None
    default = "required" if param.required else f"default {param.default!r}"
    return f"**parameter `{name}`** of `{macro.name}`: {param.type}, {default}" + (
        f"\n\n{param.doc}" if param.doc else "")


def value_kind(context: Context, macro) -> str | None:
    """The kind of name the value at the cursor takes: a macro parameter's declared type first,
    then what the key means in the spec language. `when` values are steps with before:/after:."""
    from generator.rules.params import PARAM_TYPES

    key = context.key
    if key is None:
        return None
    from generator.rules.expand import RULE_KEYS

    # a rule's own keys (text:, for:, ...) stand right under rules:, outside any flow mapping
    rule_level = context.path[-1:] == ["rules"] and key in RULE_KEYS and context.container is None
    if macro is not None and key in macro.params and not rule_level:
        ptype = macro.params[key].type
        if ptype == "when":
            return "when"
        return PARAM_TYPES.get(ptype, (None, False))[0]
    if key == "when":
        return "when"
    return _KEY_KINDS.get(key)


@lru_cache(maxsize=1)
def catalog():
    from generator.catalog import load_catalog

    return load_catalog()


def option_classes(name: str) -> list:
    """The attachment classes that have an option of this name."""
    return [cls for cls in catalog().classes.values() if name in cls.options]


def option_hover(name: str, class_name: str | None = None) -> str | None:
    classes = option_classes(name)
    if class_name:
        classes = [cls for cls in classes if cls.name == class_name] or classes
    if not classes:
        return None
    spec = classes[0].options[name]
    engines = " and ".join(sorted(spec.engines)).replace("current", "the current engine").replace("1.9", "1.9")
    lines = [f"**option `{name}`** of {', '.join(cls.name for cls in classes)}",
             "", f"value: `{_grammar(spec.grammar)}`"]
    if spec.grammar_19 != spec.grammar and spec.grammar_19:
        lines.append(f"value in 1.9: `{_grammar(spec.grammar_19)}`")
    if spec.count:
        lines.append(f"count: {spec.count}")
    lines.append(f"read by: {engines}")
    if spec.repeats:
        lines.append("may be given several times; the values add up")
    if spec.default is not None:
        lines.append(f"left out: {spec.default}")
    if spec.note:
        lines += ["", spec.note]
    return "\n".join(lines)


def _grammar(grammar) -> str:
    return " | ".join(grammar) if isinstance(grammar, tuple) else str(grammar)


def option_names(class_name: str | None, engine: str) -> list[tuple[str, str]]:
    """(option, value grammar) of a class, or of every class when the class is not known."""
    classes = [catalog().classes[class_name]] if class_name in catalog().classes else catalog().classes.values()
    found: dict[str, str] = {}
    for cls in classes:
        for name in cls.option_names(engine):
            found.setdefault(name, _grammar(cls.options[name].grammar))
    return sorted(found.items())


def code_hover(code: str) -> str | None:
    from generator.core.codes import CODES

    entry = CODES.get(code)
    if entry is None:
        return None
    return f"**{code}** ({entry.severity}): {entry.meaning}\n\nsee the README's table \"{entry.section}\""


def key_hover(name: str, path: list[str], is_mod: bool) -> str | None:
    for key, doc, words in section_keys(path, is_mod):
        if key == name:
            return f"**`{name}`**: {doc}" + (f"\n\n{words}" if words else "")
    if path == ["rules"]:
        for key, doc, _ in rule_keys():
            if key == name:
                return f"**`{name}`** (a rule): {doc}"
    return None
