"""Where the cursor is in a spec's YAML, worked out from the text alone: the spec being typed is
often not valid YAML, so the language server cannot wait for a parse to know what to offer.

`context_at` answers: the key whose value the cursor is in (or that it is typing a key), the path
of block keys above it, the word typed so far, and the macro (`use:`) of the rule it is inside."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)*([^\s#:{}\[\],'\"][^:#{}\[\]]*?|\"[^\"]*\"|'[^']*'):(?:\s|$)")
_ITEM = re.compile(r"^(\s*)-(\s|$)")
_USE = re.compile(r"^\s*(?:-\s+)?use:\s*([\w.-]+)")
_FLOW_KEY = re.compile(r"([\w.-]+|\"[^\"]*\"|'[^']*')\s*:\s*$")
LOOKBACK_LINES = 30  # a flow list spread over lines: how far back its opening bracket may be


@dataclass
class Context:
    key: str | None = None  # the key whose value is being typed; None at a key position
    at_key: bool = False  # typing a key name (in a block mapping or a flow mapping)
    in_list: bool = False  # inside [...] or a block list item
    prefix: str = ""  # the part of the word already typed
    path: list[str] = field(default_factory=list)  # the block keys above the cursor, outermost first
    macro: str | None = None  # the `use:` of the rule the cursor is in
    line: int = 0  # the cursor's line (0-based)
    container: str | None = None  # the key whose flow mapping `{...}` holds the cursor


def context_at(text: str, line: int, column: int) -> Context:
    """The context at a 0-based line and column (LSP positions)."""
    lines = text.split("\n")
    if line >= len(lines):
        return Context()
    current = lines[line][:column]
    context = Context(path=block_path(lines, line), macro=rule_macro(lines, line), line=line)
    context.prefix = _typed_word(current)
    flow = _open_flow(lines, line, column)
    if flow is not None:
        bracket, before, after = flow
        context.in_list = bracket == "["
        if bracket == "{":
            # a flow mapping: a key after '{' or ',', a value after its ':'
            opener = _FLOW_KEY.search(before)
            context.container = _unquote(opener.group(1)) if opener else None
            segment = after.rsplit(",", 1)[-1]
            if ":" in segment:
                context.key = _unquote(segment.split(":", 1)[0].strip())
            else:
                context.at_key = True
        else:
            match = _FLOW_KEY.search(before)
            context.key = _unquote(match.group(1)) if match else _enclosing_key(lines, line)
        return context
    match = _KEY_LINE.match(current)
    if match and current.rstrip() != match.group(0).rstrip() or (match and current.endswith(" ")):
        context.key = _unquote(match.group(2).strip())
        return context
    if _ITEM.match(current) and ":" not in current:
        context.in_list = True
        context.key = _enclosing_key(lines, line)
        return context
    context.at_key = True
    return context


def _typed_word(before: str) -> str:
    """What is typed of the current value or key: after the last flow separator, a list item's
    dash and a key's `: ` (a name may hold spaces, and `after:step` a colon without one)."""
    token = re.split(r"[,\[{]", before)[-1]
    token = re.sub(r"^\s*(?:-\s+)*", "", token)
    match = re.match(r"^[^:]*:\s+", token)
    if match:
        token = token[match.end():]
    return token.lstrip()


def _open_flow(lines: list[str], line: int, column: int):
    """The innermost '[' or '{' still open at the cursor: (bracket, text before it on its line,
    text after it up to the cursor), or None outside any."""
    depth = 0
    for number in range(line, max(-1, line - LOOKBACK_LINES), -1):
        text = lines[number][:column] if number == line else lines[number]
        text = _without_comment(text)
        if number != line and _KEY_LINE.match(text) and not text.rstrip().endswith(("[", "{", ",")):
            if depth == 0 and number != line:
                return None
        quote = None
        for index in range(len(text) - 1, -1, -1):
            char = text[index]
            if quote:
                if char == quote:
                    quote = None
                continue
            if char in "'\"":
                quote = char
            elif char in "]}":
                depth += 1
            elif char in "[{":
                if depth == 0:
                    after = text[index + 1:] + "".join(
                        "\n" + lines[n] for n in range(number + 1, line)) + (
                        "\n" + lines[line][:column] if number != line else "")
                    return char, text[:index], after
                depth -= 1
    return None


def _without_comment(text: str) -> str:
    index = text.find(" #")
    return text if index < 0 else text[:index]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _item_indent(text: str) -> int:
    """The indentation of a line's content: `  - key:` counts as the key's column."""
    match = re.match(r"^(\s*(?:-\s+)*)", text)
    return len(match.group(1)) if match else 0  # the pattern may match empty: never None


def block_path(lines: list[str], line: int, column: int | None = None) -> list[str]:
    """The keys of the block mappings that hold the line, outermost first. A list item's dash
    belongs to the key above it at its column or left of it (`rules:` then `- id:` at either)."""
    current = lines[line]
    if not current.strip():
        limit = len(current) if column is None else column
    elif _ITEM.match(current):
        limit = _indent(current) + 1
    else:
        limit = _indent(current)
    path: list[str] = []
    for number in range(line - 1, -1, -1):
        if limit == 0:
            break
        text = lines[number]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        match = _KEY_LINE.match(text)
        if match and _item_indent(text) < limit:
            path.append(_unquote(match.group(2).strip()))
            limit = _item_indent(text)
        if _ITEM.match(text) and _indent(text) < limit:
            limit = _indent(text) + 1
    return list(reversed(path))


def _enclosing_key(lines: list[str], line: int) -> str | None:
    path = block_path(lines, line)
    return path[-1] if path else None


def rule_item(lines: list[str], line: int) -> tuple[int, int] | None:
    """The first and last line of the `rules:` or `scenarios:` list item holding `line`, or None."""
    start = None
    for number in range(line, -1, -1):
        text = lines[number]
        if _ITEM.match(text) and _indent(text) <= 4:
            start = number
            break
        if text.strip() and _indent(text) == 0:
            return None
    if start is None:
        return None
    indent = _indent(lines[start])
    end = start
    for number in range(start + 1, len(lines)):
        text = lines[number]
        if text.strip() and not text.lstrip().startswith("#") and _indent(text) <= indent:
            break
        end = number
    return start, end


def rule_macro(lines: list[str], line: int) -> str | None:
    span = rule_item(lines, line)
    if span is None:
        return None
    for number in range(span[0], span[1] + 1):
        match = _USE.match(lines[number])
        if match and _indent(lines[number]) <= _indent(lines[span[0]]) + 2:
            return match.group(1)
    return None


def word_at(text: str, line: int, column: int) -> tuple[str, int, int]:
    """The name under the cursor (names may hold spaces: 'United Kingdom', '110 Sea Zone') and its
    start and end columns. Stops at YAML punctuation."""
    lines = text.split("\n")
    if line >= len(lines):
        return "", column, column
    current = lines[line]
    stops = ",[]{}:'\"#"
    start = column
    while start > 0 and current[start - 1] not in stops:
        start -= 1
    end = column
    while end < len(current) and current[end] not in stops:
        end += 1
    word = current[start:end]
    stripped = word.strip()
    if stripped.startswith("- "):
        stripped = stripped[2:].strip()
    offset = word.find(stripped) if stripped else 0
    return stripped, start + offset, start + offset + len(stripped)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def item_value(lines: list[str], line: int, key: str) -> str | None:
    """The value of `key` in the list item that holds the line (`class:` of an attachment whose
    options are typed), in block or flow form, or None."""
    start = None
    limit = _item_indent(lines[line]) + 1 if lines[line].strip() else len(lines[line]) + 1
    for number in range(line, -1, -1):
        text = lines[number]
        if _ITEM.match(text) and _indent(text) < limit:
            start = number
            break
        if text.strip() and _indent(text) < limit:
            limit = _indent(text)
    if start is None:
        return None
    indent = _indent(lines[start])
    pattern = re.compile(rf"(?:^|[\s{{,-]){re.escape(key)}:\s*['\"]?([\w.$-]+)")
    for number in range(start, len(lines)):
        text = lines[number]
        if number > start and text.strip() and _indent(text) <= indent:
            break
        match = pattern.search(_without_comment(text))
        if match:
            return match.group(1)
    return None
