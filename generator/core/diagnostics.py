"""Located diagnostics: every problem a user can fix is reported as
``FILE:LINE:COL: severity[CODE]: message`` plus a hint, never as a traceback."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, NamedTuple

from generator.core.codes import CODES

# Exit statuses shared by every subcommand.
EXIT_OK = 0
EXIT_ERRORS = 1  # the input was read but has errors (validation findings)
EXIT_UNUSABLE = 2  # the input could not be used at all (syntax, unknown section, ...)
EXIT_INTERNAL = 3  # a bug in triplea-gen


class Position(NamedTuple):
    """Where something came from. A tuple: one is made for every YAML key and XML element read."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col or 1}"
        return self.file


class LazyHint:
    """A hint worked out when it is first shown: a 'did you mean' search takes time, and
    the warnings of a mod's base game are only counted, never shown."""

    __slots__ = ("_make", "_text")

    def __init__(self, make: Callable[[], str]):
        self._make: Callable[[], str] = make
        self._text: str | None = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._make()
        return text

    def __bool__(self) -> bool:
        return bool(str(self))

    def __eq__(self, other) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return 0  # equal hints hash alike without working the text out (diagnostics are deduplicated by hash)

    def __repr__(self) -> str:
        return repr(str(self))


@dataclass(frozen=True)
class Diagnostic:
    code: str  # stable, e.g. TG001; declared in core/codes.py, documented in README
    message: str
    position: Position
    hint: str | LazyHint = ""
    # error | warning; by default the one core/codes.py registers for the code
    severity: str = None  # type: ignore[assignment]  # always a str once made: __post_init__ fills it

    def __post_init__(self):
        # A code not declared in core/codes.py (and so not in README) is a bug: refusing it here
        # makes every test that reaches the diagnostic fail. A dict lookup: diagnostics are many.
        entry = CODES.get(self.code)
        if entry is None:
            raise UnregisteredCode(f"{self.code} is not declared in generator/core/codes.py")
        if self.severity is None:
            object.__setattr__(self, "severity", entry.severity)
        elif self.severity != entry.severity and not entry.mixed:
            # The registry owns the severity (README documents it); only codes it marks mixed
            # are reported at the other one too.
            raise MisreportedSeverity(f"{self.code} is registered as {entry.severity} in generator/core/codes.py, "
                                      f"reported as {self.severity}")

    def format(self) -> str:
        text = f"{printable(str(self.position))}: {self.severity}[{self.code}]: {printable(self.message)}"
        if self.hint:
            text += f"\n  hint: {printable(str(self.hint))}"
        return text

    def sort_key(self):
        return (self.position.file, self.position.line, self.position.col, self.code)

    def as_json(self) -> dict:
        return {
            "file": self.position.file,
            "line": self.position.line,
            "col": self.position.col,
            "severity": self.severity,
            "code": self.code,
            "message": shortened(self.message),
            "hint": shortened(str(self.hint)),
        }


class UnregisteredCode(ValueError):
    """A diagnostic made with a code generator/core/codes.py does not declare."""


class MisreportedSeverity(ValueError):
    """A diagnostic made at the other severity than generator/core/codes.py registers (and not mixed)."""


MAX_SHOWN_CHARS = 1000
# Control characters (C0, DEL, C1), line and paragraph separators and the bidirectional
# overrides: in a message they could move the cursor, recolour or rewrite the terminal, forge
# another diagnostic line, or show text in another order than it has.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def shortened(text: str) -> str:
    """A text as a message shows it: a value of megabytes keeps its start and end."""
    if len(text) <= MAX_SHOWN_CHARS:
        return text
    return f"{text[:700]}…[{len(text) - 900} characters left out]…{text[-200:]}"


def printable(text: str) -> str:
    """Text safe to print on a terminal: shortened, every control character shown as an escape."""
    return escaped(shortened(text))


def escaped(text: str) -> str:
    """Every control character (and line separator, bidi override) shown as an escape; nothing cut."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class DiagnosticError(Exception):
    """Raised when input is unusable; carries every diagnostic found in the pass."""

    def __init__(self, diagnostics: list[Diagnostic], exit_status: int = EXIT_UNUSABLE):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.exit_status = exit_status
        super().__init__("\n".join(d.format() for d in self.diagnostics))


@dataclass
class Collector:
    """Gathers diagnostics during one pass so that all are reported together."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def report(self, code: str, message: str, position: Position, hint: str | LazyHint = "") -> None:
        """At the severity core/codes.py registers for the code."""
        self.diagnostics.append(Diagnostic(code, message, position, hint))

    def error(self, code: str, message: str, position: Position, hint: str | LazyHint = "") -> None:
        self.diagnostics.append(Diagnostic(code, message, position, hint, "error"))

    def warning(self, code: str, message: str, position: Position, hint: str | LazyHint = "") -> None:
        self.diagnostics.append(Diagnostic(code, message, position, hint, "warning"))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def raise_if_errors(self, exit_status: int = EXIT_UNUSABLE) -> None:
        if self.has_errors:
            raise DiagnosticError(self.diagnostics, exit_status)


def display_path(path: str | os.PathLike) -> str:
    """A path as the user should read it: relative to the working directory when inside it."""
    text = os.fspath(path)
    try:
        rel = os.path.relpath(text)
    except ValueError:
        return text
    return text if rel.startswith("..") else rel


def closest(name: str, candidates) -> str:
    """A 'did you mean' suffix for hints, or an empty string."""
    match = _closest(name, tuple(candidates))
    return f"did you mean '{match}'?" if match else ""


def closest_name(name: str, candidates) -> str | None:
    """The candidate a misspelt name most likely meant, or None."""
    return _closest(name, tuple(candidates))


@lru_cache(maxsize=512)
def _closest(name: str, candidates: tuple) -> str | None:
    # Cached: a warm process (watch, build server) meets the same unknown names on every rebuild.
    import difflib

    match = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return match[0] if match else None
