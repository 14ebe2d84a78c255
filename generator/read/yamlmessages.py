"""PyYAML's (libyaml's) syntax errors in words a modder can act on.

The parser reports a problem ("found character that cannot start any token") and what it was
doing ("while scanning for the next token"); pasted together they read as nonsense. Here the
commonest causes get a sentence and a hint of their own, a tab in the indentation first (YAML
indents with spaces only, and a tab shows as several different errors); any other message keeps
the parser's words, with what it was reading said plainly."""
from __future__ import annotations

from typing import NamedTuple

import yaml

DEFAULT_HINT = "fix the YAML at this position (indentation, a missing ':' or an unclosed quote?)"


class YamlProblem(NamedTuple):
    message: str
    hint: str
    line: int  # 0-based, as the parser's marks
    column: int


# What the parser was reading ("while parsing a flow mapping"), as a modder calls it.
_READING = {
    "a block mapping": "the mapping",
    "a block collection": "the list",
    "a flow sequence": "the [...] list",
    "a flow mapping": "the {...} mapping",
    "a quoted scalar": "the quoted text",
    "a plain scalar": "the value",
    "a simple key": "the key",
    "a block scalar": "the block text (| or >)",
    "a node": "the value",
    "an anchor": "the anchor (&name)",
    "an alias": "the alias (*name)",
    "a tag": "the tag (!...)",
    "a directive": "the directive (%...)",
}

# The parser's problem -> (our sentence, our hint). {reading} is what it was reading, with where.
_PROBLEMS = {
    "did not find expected key":
        ("a line that does not fit {reading}: not a 'key: value' at its indentation",
         "indent the line like the keys above it, or check for a '-' item among keys"),
    "did not find expected '-' indicator":
        ("a line that does not fit {reading}: not a '- ' item at its indentation",
         "indent the line like the items above it, or start it with '- '"),
    "did not find expected ',' or ']'":
        ("{reading} is not closed: ']' or a ',' between items is missing",
         "close the list with ']' and separate its items with ','"),
    "did not find expected ',' or '}'":
        ("{reading} is not closed: '}}' or a ',' between entries is missing",
         "close the mapping with '}}' and separate its entries with ','"),
    "mapping values are not allowed in this context":
        ("a ': ' inside a value (YAML reads it as a second key)",
         "put the value in quotes, or start a new line for the key"),
    "block sequence entries are not allowed in this context":
        ("a '- ' item where a value was expected",
         "put the list on the lines below its key, indented, or quote the value"),
    "found unexpected end of stream":
        ("the file ends inside {reading}: its closing quote is missing",
         "close the quote"),
    "found undefined alias":
        ("an alias (*name) with no anchor (&name) before it",
         "define the anchor first, or quote the value if '*' is meant literally"),
    "but found another document":
        ("a second YAML document (after '---'); a spec is one document",
         "remove the '---' line, or put the second document in a file of its own"),
    "could not find expected ':'":
        ("{reading} has no ':' after it",
         "write 'key: value', or quote the text if it is a value"),
    "found character that cannot start any token":
        ("a value cannot start with {char}: YAML reserves it",
         "put the value in quotes"),
    "did not find expected node content":
        ("a value is missing or cannot start here",
         "write a value, or quote it"),
}


# PyYAML's pure-Python parser (used where libyaml is missing) words some problems differently.
_PYTHON_SPELLINGS = (
    ("found character ", " that cannot start any token", "found character that cannot start any token"),
    ("expected ',' or ']'", "", "did not find expected ',' or ']'"),
    ("expected ',' or '}'", "", "did not find expected ',' or '}'"),
    ("expected <block end>", "", "did not find expected key"),
    ("found undefined alias", "", "found undefined alias"),
    ("while scanning a simple key", "", "could not find expected ':'"),
)


def _problem(err: yaml.MarkedYAMLError) -> str:
    problem = (err.problem or err.context or "invalid YAML").strip()
    for start, end, libyaml in _PYTHON_SPELLINGS:
        if problem.startswith(start) and problem.endswith(end):
            return libyaml
    return problem


def explain(err: yaml.MarkedYAMLError, text: str) -> YamlProblem:
    """The error in plain words, at the position a modder must look at."""
    mark = err.problem_mark or err.context_mark
    tab = _indenting_tab(text, mark)
    if tab is None and err.context_mark is not None and err.context_mark is not mark:
        tab = _indenting_tab(text, err.context_mark)
    if tab is not None:
        line, column = tab
        return YamlProblem(f"line {line + 1} starts with a tab; YAML indents with spaces only",
                           "replace the tab with spaces (set the editor to insert spaces for Tab)", line, column)
    line, column = (mark.line, mark.column) if mark is not None else (0, 0)
    reading = _reading(err, mark)
    problem = _problem(err)
    known = _PROBLEMS.get(problem)
    if known is not None:
        message, hint = known
        return YamlProblem(message.format(reading=reading or "the value", char=_character(text, mark)),
                           hint.format(), line, column)
    message = problem + (f" (reading {reading})" if reading else "")
    return YamlProblem(message, DEFAULT_HINT, line, column)


def _reading(err: yaml.MarkedYAMLError, mark) -> str:
    """'the [...] list that starts at line 3, column 7', or '' when the parser said nothing useful."""
    if not (err.problem and err.context and err.context_mark is not None):
        return ""
    context = err.context
    for verb in ("while parsing ", "while scanning ", "while composing "):
        context = context.replace(verb, "")
    what = _READING.get(context)
    if what is None:
        return ""
    if mark is not None and (err.context_mark.line, err.context_mark.column) == (mark.line, mark.column):
        return what
    return f"{what} that starts at line {err.context_mark.line + 1}, column {err.context_mark.column + 1}"


def _character(text: str, mark) -> str:
    if mark is None or mark.index is None or mark.index >= len(text):
        return "this character"
    return repr(text[mark.index])


def _indenting_tab(text: str, mark) -> tuple[int, int] | None:
    """(line, column) of a tab among the spaces and '- ' indicators that start the mark's line."""
    if mark is None or mark.index is None:
        return None
    start = max(text.rfind(c, 0, mark.index) for c in "\n\r") + 1
    column = 0
    for char in text[start:]:
        if char == "\t":
            return mark.line, column
        if char not in " -":
            return None
        column += 1
    return None
