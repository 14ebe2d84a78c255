"""The value grammar of attachment options (see the header of attachments.yaml),
compiled once into checker functions.

A checker takes the option's full value S (count:value) and a Resolver that knows
the game's names, and returns the problems found. Validating Global 1940 runs a
checker about 35,000 times, so checkers are closures over precomputed tables:
no parsing of the grammar and no regex compilation per option."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol

from generator.core.diagnostics import closest

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
_INT_TEXT = re.compile(r"[+-]?[0-9]+\Z")
_DECIMAL_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_SPAN_TEXT = re.compile(r"([+-]?[0-9]+)-([+-]?[0-9]+)\Z")
_ROUNDS_OPEN_TEXT = re.compile(r"[+-]?[0-9]+-\+\Z")

# Every kind of declared name: the code of an unknown one and how messages call it (the validator
# reports names of all these kinds; option values may name the REFERENCE_KINDS).
NAME_KINDS = {
    "territory": ("TG120", "territory"),
    "player": ("TG121", "player"),
    "unit": ("TG122", "unit type"),
    "resource": ("TG123", "resource"),
    "relType": ("TG124", "relationship type"),
    "effect": ("TG125", "territory effect"),
    "tech": ("TG126", "technology"),
    "delegate": ("TG127", "delegate"),
    "frontier": ("TG128", "production frontier"),
    "repairFrontier": ("TG128", "repair frontier"),
    "rule": ("TG129", "production rule"),
    "repairRule": ("TG129", "repair rule"),
}
# The kinds an option value may name.
REFERENCE_KINDS = {kind: NAME_KINDS[kind] for kind in (
    "territory", "player", "unit", "resource", "relType", "effect", "tech", "frontier", "rule")}
ATTACHMENT_KINDS = {"condition", "trigger", "support"}
# Names that exist only at run time: a miss is a warning, not an error.
SOFT_KINDS = {"step": ("TG150", "step")}
VALUE_CODE = "TG143"

CONDITION_TERRITORY_GROUPS = frozenset(
    ["original", "originalNoWater", "controlled", "controlledNoWater", "all", "map", "enemy"])


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    hint: str = ""
    severity: str = "error"


class Resolver(Protocol):
    @property
    def names(self) -> Mapping[str, set[str]]:  # reference kind -> declared names (read only here)
        ...

    def attachment(self, kind: str, name: str) -> Problem | None:
        """None if `name` is an attachment of `kind` defined before the current one."""


Checker = Callable[[str, Resolver], list[Problem]]


def java_int(text: str) -> int | None:
    """The int Java's Integer.parseInt reads from `text`, or None."""
    if _INT_TEXT.match(text):
        value = int(text)
        if INT_MIN <= value <= INT_MAX:
            return value
    return None


def is_bool(text: str) -> bool:
    return text.lower() in ("true", "false")


# ---------------------------------------------------------------- tokens

TokenCheck = Callable[[str, Resolver], "Problem | None"]


def _describe(alternative: str) -> str:
    if alternative == "int":
        return "a whole number"
    if alternative.startswith("int>="):
        return f"a whole number >= {alternative[5:]}"
    if alternative == "bool":
        return "true or false"
    if alternative == "decimal":
        return "a decimal number"
    if alternative == "rounds":
        return "a round (n, a-b or a-+)"
    if alternative == "span":
        return "a round range a-b"
    if alternative == "condType":
        return "AND, OR, a number n or a range n-m"
    kind = alternative.lstrip("-")
    if kind in REFERENCE_KINDS:
        return f"a {REFERENCE_KINDS[kind][1]} name"
    if kind in ATTACHMENT_KINDS or kind in SOFT_KINDS:
        return f"a {kind} name"
    if alternative == "name":
        return "a name"
    return f"'{alternative}'"


def _type_problem(token: str, expected: str) -> Problem:
    shown = f"'{token}'" if token else "an empty field"
    return Problem(VALUE_CODE, f"{shown} is not {expected}", f"write {expected}")


def _int_check(minimum: int | None) -> TokenCheck:
    def check(token, resolver):
        value = java_int(token)
        if value is None:
            return _type_problem(token, "a whole number")
        if minimum is not None and value < minimum:
            return Problem(VALUE_CODE, f"{value} is less than {minimum}", f"write a number >= {minimum}")
        return None
    return check


def _bool_check(token, resolver):
    return None if is_bool(token) else _type_problem(token, "true or false")


def _decimal_check(token, resolver):
    return None if _DECIMAL_TEXT.match(token) else _type_problem(token, "a decimal number")


def _span_ok(token: str) -> bool:
    match = _SPAN_TEXT.match(token)
    return match is not None and java_int(match.group(1)) is not None and java_int(match.group(2)) is not None


def _rounds_check(token, resolver):
    if java_int(token) is not None or _span_ok(token) or _ROUNDS_OPEN_TEXT.match(token):
        return None
    return _type_problem(token, "a round (n, a-b or a-+)")


def _span_check(token, resolver):
    return None if _span_ok(token) else _type_problem(token, "a round range a-b")


def _cond_type_check(token, resolver):
    upper = token.upper()
    if upper in ("AND", "OR", "XOR") or java_int(token) is not None:
        return None
    match = _SPAN_TEXT.match(token)
    if match and java_int(match.group(1)) is not None and java_int(match.group(2)) is not None:
        if int(match.group(2)) > int(match.group(1)):
            return None
        return Problem(VALUE_CODE, f"conditionType range '{token}' must have its second number greater",
                       "write n-m with m > n")
    return _type_problem(token, "AND, OR, a number n or a range n-m")


def _name_check(token, resolver):
    return None


def _reference_check(kind: str) -> TokenCheck:
    code, shown = REFERENCE_KINDS[kind]

    def check(token, resolver):
        names = resolver.names[kind]
        if token in names:
            return None
        return Problem(code, f"unknown {shown} '{token}'", closest(token, names) or f"declare the {shown} first")
    return check


def _soft_reference_check(kind: str) -> TokenCheck:
    code, shown = SOFT_KINDS[kind]

    def check(token, resolver):
        names = resolver.names[kind]
        if token in names:
            return None
        return Problem(code, f"no {shown} named '{token}'; this never happens",
                       closest(token, names) or f"use the name of a {shown} in <sequence>", "warning")
    return check


def _attachment_check(kind: str) -> TokenCheck:
    def check(token, resolver):
        return resolver.attachment(kind, token)
    return check


def _minus_prefixed(inner: TokenCheck) -> TokenCheck:
    def check(token, resolver):
        return inner(token[1:] if token.startswith("-") else token, resolver)
    return check


def _alternative_check(alternative: str) -> tuple[TokenCheck, str]:
    """The check for one alternative and its rank when choosing which miss to report
    (references first: 'unknown unit fightr' beats 'not a number')."""
    if alternative.startswith("-") and len(alternative) > 1:
        check, rank = _alternative_check(alternative[1:])
        return _minus_prefixed(check), rank
    if alternative == "int":
        return _int_check(None), "type"
    if alternative.startswith("int>="):
        return _int_check(int(alternative[5:])), "type"
    simple = {"bool": _bool_check, "decimal": _decimal_check, "rounds": _rounds_check,
              "span": _span_check, "condType": _cond_type_check, "name": _name_check}
    if alternative in simple:
        return simple[alternative], "type"
    if alternative in REFERENCE_KINDS:
        return _reference_check(alternative), "reference"
    if alternative in ATTACHMENT_KINDS:
        return _attachment_check(alternative), "reference"
    if alternative in SOFT_KINDS:
        return _soft_reference_check(alternative), "reference"
    raise ValueError(f"not a grammar kind: {alternative!r}")


_KIND_WORDS = {"int", "bool", "decimal", "rounds", "span", "condType", "name"} | set(REFERENCE_KINDS) \
    | ATTACHMENT_KINDS | set(SOFT_KINDS)


def _is_kind(alternative: str) -> bool:
    bare = alternative[1:] if alternative.startswith("-") and len(alternative) > 1 else alternative
    return bare in _KIND_WORDS or bare.startswith("int>=")


@dataclass(frozen=True)
class _Field:
    check: TokenCheck
    quantifier: str  # "" | "?" | "+" | "*"
    group: tuple = ()  # for "(a:b)+": the repeated fields


def _compile_field(text: str) -> _Field:
    quantifier = text[-1] if text[-1] in "?+*" else ""
    body = text[:-1] if quantifier else text
    literals: dict[str, str] = {}
    kinds: list[tuple[TokenCheck, str, str]] = []
    for alternative in body.split("|"):
        if _is_kind(alternative):
            check, rank = _alternative_check(alternative)
            kinds.append((check, rank, alternative))
        else:
            literals[alternative.lower()] = alternative
    expected = " or ".join([_describe(a) for _, _, a in kinds] + [f"'{lit}'" for lit in literals.values()])

    if not kinds:
        def check_literal(token, resolver):
            if token.lower() in literals:
                return None
            return Problem(VALUE_CODE, f"'{token}' is not {expected}",
                           closest(token, literals.values()) or f"write {expected}")
        return _Field(check_literal, quantifier)

    if len(kinds) == 1 and not literals:
        return _Field(kinds[0][0], quantifier)

    def check_alternatives(token, resolver):
        if token.lower() in literals:
            return None
        misses = []
        for kind_check, rank, _ in kinds:
            problem = kind_check(token, resolver)
            if problem is None:
                return None
            misses.append((rank, problem))
        references = [p for rank, p in misses if rank == "reference"]
        if references:
            first = references[0]
            extra = ", ".join(literals.values())
            hint = first.hint + (f" (or one of: {extra})" if extra else "")
            return Problem(first.code, first.message, hint, first.severity)
        return Problem(VALUE_CODE, f"'{token}' is not {expected}", f"write {expected}")
    return _Field(check_alternatives, quantifier)


def _split_fields(pattern: str) -> list[str]:
    """Split on ':' outside parentheses."""
    fields: list[str] = []
    current: list[str] = []
    depth = 0
    for char in pattern:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if char == ":" and depth == 0:
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def _checked_by_its_fields(token: str, resolver: Resolver) -> Problem | None:
    """The check of a group field: never called, a group's tokens go to the fields inside it."""
    raise AssertionError("a group field's tokens are checked by its own fields")


def _compile_fields(pattern: str) -> list[_Field]:
    fields = []
    for text in _split_fields(pattern):
        if text.startswith("("):
            inner = text[1:text.rindex(")")]
            fields.append(_Field(_checked_by_its_fields, "group", tuple(_compile_fields(inner))))
        else:
            fields.append(_compile_field(text))
    return fields


def _shape_problem(pattern: str, value: str, why: str) -> Problem:
    return Problem(VALUE_CODE, f"'{value}' {why}; expected the form {pattern}",
                   "fields are separated by ':'; the count attribute, if any, is the first field")


def _compile_pattern(pattern: str) -> Checker:
    fields = _compile_fields(pattern)
    last = len(fields) - 1

    # The commonest shapes get direct closures: they run tens of thousands of times.
    if len(fields) == 1 and fields[0].quantifier == "":
        single = fields[0].check

        def check_single(value, resolver):
            if ":" in value:
                return [_shape_problem(pattern, value, "has more fields than allowed")]
            problem = single(value, resolver)
            return [problem] if problem else []
        return check_single
    if len(fields) == 1 and fields[0].quantifier in ("+", "*"):
        each = fields[0].check

        def check_list(value, resolver):
            problems = []
            for token in value.split(":"):
                problem = each(token, resolver)
                if problem:
                    problems.append(problem)
            return problems
        return check_list

    def check(value, resolver):
        tokens = value.split(":")
        count = len(tokens)
        problems: list[Problem] = []
        i = 0
        for index, field in enumerate(fields):
            if field.quantifier == "group":
                size = len(field.group)
                rest = count - i
                if rest <= 0 or rest % size:
                    return problems + [_shape_problem(pattern, value, "has the wrong number of fields")]
                while i < count:
                    for sub in field.group:
                        problem = sub.check(tokens[i], resolver)
                        if problem:
                            problems.append(problem)
                        i += 1
            elif field.quantifier == "?":
                if i < count:
                    problem = field.check(tokens[i], resolver)
                    if problem is None:
                        i += 1
                    elif index == last:
                        return problems + [problem]
            elif field.quantifier in ("+", "*"):
                if field.quantifier == "+" and i >= count:
                    return problems + [_shape_problem(pattern, value, "has too few fields")]
                while i < count:
                    problem = field.check(tokens[i], resolver)
                    if problem:
                        problems.append(problem)
                    i += 1
            else:
                if i >= count:
                    return problems + [_shape_problem(pattern, value, "has too few fields")]
                problem = field.check(tokens[i], resolver)
                if problem:
                    # like the engine, stop: the fields after a bad one may be shifted
                    return problems + [problem]
                i += 1
        if i < count:
            problems.append(_shape_problem(pattern, value, "has more fields than allowed"))
        return problems
    return check


# ---------------------------------------------------------------- whole-value checkers

def _text_check(value, resolver):
    return []


def _chance_check(value, resolver):
    parts = value.split(":")
    if len(parts) == 2:
        low, high = java_int(parts[0]), java_int(parts[1])
        if low is not None and high is not None:
            if 0 <= low <= high <= 120:
                return []
            return [Problem(VALUE_CODE, f"chance '{value}' needs 0 <= x <= y <= 120", "e.g. 1:6 for one in six")]
    return [Problem(VALUE_CODE, f"chance '{value}' is not of the form x:y", "e.g. 1:6 for one in six")]


def _condition_territories_check(value, resolver):
    """Territory lists of conditions (attachments.md §1.5): an optional count or
    'each', then territories; a group keyword ends the list as far as the engine
    checks it."""
    if not value:
        return []
    territories = resolver.names["territory"]
    problems = []
    for index, token in enumerate(value.split(":")):
        if token == "each":
            continue
        if token in CONDITION_TERRITORY_GROUPS:
            break
        if index == 0 and java_int(token) is not None:
            continue
        if token not in territories:
            hint = closest(token, territories) or "a territory name, a count or each, or one of: " \
                + ", ".join(sorted(CONDITION_TERRITORY_GROUPS))
            problems.append(Problem("TG120", f"unknown territory '{token}'", hint))
    return problems


def attachment_name_checker(allowed: Mapping[str, tuple[str, ...]], fix_spelling: bool) -> Checker:
    """The <group>AttachmentName options: value = class, count = attachment name,
    so S = name:Class; the name must carry the class's prefix."""
    classes = ", ".join(allowed)

    def check(value, resolver):
        if fix_spelling:
            value = value.replace("ttatch", "ttach")
        parts = value.split(":")
        if len(parts) != 2:
            return [Problem(VALUE_CODE, f"'{value}' must be attachmentName:ClassName",
                            'write value="ClassName" count="attachmentName"')]
        name, class_name = parts
        if class_name not in allowed:
            return [Problem(VALUE_CODE, f"'{class_name}' cannot be targeted here",
                            closest(class_name, allowed) or f"use one of: {classes}")]
        prefixes = allowed[class_name]
        if not name or not name.startswith(prefixes):
            return [Problem(VALUE_CODE, f"attachment name '{name}' must start with {' or '.join(prefixes)}"
                            f" for {class_name}", "the engine refuses other names here")]
        return []
    return check


_WHOLE_VALUE = {
    "text": _text_check,
    "chance": _chance_check,
    "@conditionTerritories": _condition_territories_check,
    "@propertyChange": _text_check,  # the target option is checked in validate.py
}


@functools.cache
def compile_grammar(spec: str | tuple[str, ...]) -> Checker:
    """A checker for one grammar or, for a tuple, for any of several forms."""
    if isinstance(spec, str):
        if spec in _WHOLE_VALUE:
            return _WHOLE_VALUE[spec]
        return _compile_pattern(spec)
    forms = [compile_grammar(form) for form in spec]
    shown = " | ".join(spec)

    def check_any(value, resolver):
        attempts = []
        for form in forms:
            problems = form(value, resolver)
            if not problems:
                return []
            attempts.append(problems)
        for problems in attempts:
            if all(p.code != VALUE_CODE for p in problems):
                return problems
        return [Problem(VALUE_CODE, f"'{value}' matches none of the forms {shown}",
                        "fields are separated by ':'; the count attribute, if any, is the first field")]
    return check_any


def validate_grammar(spec: str) -> None:
    """Raise ValueError if `spec` is not a well-formed grammar (for the catalog tests)."""
    if spec in _WHOLE_VALUE or spec.startswith("@"):
        if spec not in _WHOLE_VALUE and spec != "@attachmentName":
            raise ValueError(f"unknown checker {spec!r}")
        return
    fields = _split_fields(spec)
    for index, text in enumerate(fields):
        if not text:
            raise ValueError(f"{spec!r}: empty field")
        if text.startswith("("):
            if not text.endswith(")+") or index != len(fields) - 1:
                raise ValueError(f"{spec!r}: a group must be the last field and end in ')+'")
            validate_grammar(text[1:-2])
            continue
        quantifier = text[-1] if text[-1] in "?+*" else ""
        if quantifier in "+*" and quantifier and index != len(fields) - 1:
            raise ValueError(f"{spec!r}: '{text}' repeats but is not the last field")
        body = text[:-1] if quantifier else text
        if not body:
            raise ValueError(f"{spec!r}: empty field")
        for alternative in body.split("|"):
            if not alternative:
                raise ValueError(f"{spec!r}: empty alternative")
            if _is_kind(alternative):
                _alternative_check(alternative)
            elif not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", alternative):
                raise ValueError(f"{spec!r}: {alternative!r} is neither a kind nor a literal word")
