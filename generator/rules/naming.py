"""Name parts of what rules generate, from rule ids, loop values and labels."""
from __future__ import annotations

import re


def identifier(text) -> str:
    """A name part for attachment names: 'French Indo China' -> 'French_Indo_China'."""
    return re.sub(r"[^A-Za-z0-9]+", "_", str(text)).strip("_")


def each_once(names: list[str]) -> list[str]:
    """names without repeats, each where it first stands (exactly: the engine tells 'Kiev' from 'kiev',
    where Jinja's unique filter does not)."""
    return list(dict.fromkeys(names))
