"""Located diagnostics: every problem a user can fix is reported as
``FILE:LINE:COL: severity[CODE]: message`` plus a hint, never as a traceback."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, NamedTuple

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
        self._make, self._text = make, None

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._make()
        return self._text

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
    code: str  # stable, e.g. TG001; documented in README
    message: str
    position: Position
    hint: str | LazyHint = ""
    severity: str = "error"  # error | warning

    def format(self) -> str:
        text = f"{self.position}: {self.severity}[{self.code}]: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
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
            "message": self.message,
            "hint": str(self.hint),
        }


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

    def error(self, code: str, message: str, position: Position, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(code, message, position, hint, "error"))

    def warning(self, code: str, message: str, position: Position, hint: str = "") -> None:
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
    return _closest(name, tuple(candidates))


@lru_cache(maxsize=512)
def _closest(name: str, candidates: tuple) -> str:
    # Cached: a warm process (watch, build server) meets the same unknown names on every rebuild.
    import difflib

    match = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else ""
