"""A warm process's rendered macro fragments, reused by the next rebuild of the same spec when nothing
the render read has changed (issue #30: a one-number edit re-renders one rule, not all 200).

A macro's render is a function of: its template files, the rule's checked parameters, the rule's key
and id, the side its conditions count (`allied_owns`), and the answers of the `game.*` helpers it asked.
The first four make the key. The helpers' answers cannot be known before the render (the template picks
what it asks), so the render is recorded through a proxy: every helper call, its arguments and a
fingerprint of its answer. A kept render is reused only when asking the same questions of the current
game gives the same answers, byte for byte (pickle), including the positions of model entities handed
back. Templates cannot reach the game but through those helpers (the sandbox refuses `_` names and is
immutable), and the helpers only read the game, so equal answers mean an equal render.

Only successful renders are kept: a failing one reports at the rule's line, and does so again each time.
Positions are not part of a render's output (merge_fragment places what it reads at the rule's line,
given afresh on every rebuild), so a rule that moves reuses its render and still reports at its new line.

The build's template budget (loop steps, output size) is charged what the recorded render spent; a
replay that would overspend it renders for real instead, so that it fails exactly where a cold build
fails. Only the time bound is not charged (it depends on the machine anyway)."""
from __future__ import annotations

import copy
import os
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from generator.render import sandbox
from generator.rules.helpers import GameHelpers

MAX_SPECS = 4  # specs a warm process keeps renders of (the language server may hold a few open)
MAX_RENDERS = 4096  # renders kept per spec: more than any example expands to; past it, rendered every time


@dataclass(frozen=True)
class _Kept:
    reads: tuple[tuple[str, bytes, bytes], ...]  # helper name, pickled (args, kwargs), pickled answer
    text: str  # the fragment as record.fragments holds it
    tree: etree._ElementTree  # never handed out: copies are (merge_fragment takes the tree apart)
    iterations: int  # the budget the render spent
    output: int


class _Memo:
    """One spec's renders: those of the last rebuild (reused), those of this one (kept for the next)."""

    def __init__(self) -> None:
        self.last: dict[bytes, _Kept] = {}
        self.now: dict[bytes, _Kept] = {}


_kept: dict[str, _Memo] = {}  # by the spec's display path; cleared by forget_warm_state


def begin(source: str) -> _Memo:
    memo = _kept.pop(source, None) or _Memo()
    _kept[source] = memo  # the most recent last: the oldest spec goes first
    while len(_kept) > MAX_SPECS:
        del _kept[next(iter(_kept))]
    memo.now = {}
    return memo


def finish(memo: _Memo) -> None:
    """The rebuild went through: its renders are those the next one may reuse."""
    memo.last, memo.now = memo.now, {}


def template_stamp(folders: Sequence[Path]) -> tuple:
    """Every file a macro may load (its folder's and the shipped ones, subfolders too) by name, size,
    modification time and inode: the same test Jinja's own reloading makes."""
    stamp: list[tuple] = []
    for folder in folders:
        for top, dirs, files in os.walk(folder):  # links are not followed (a macro may not load them)
            dirs.sort()
            for name in sorted(files):
                info = os.lstat(os.path.join(top, name))
                stamp.append((top, name, info.st_size, info.st_mtime_ns, info.st_ino))
    return tuple(stamp)


def render_key(stamp: tuple, macro_path: Path, values: dict, key: str, rule_id: str,
               side: list[str] | None) -> bytes | None:
    """Everything a render reads besides the game's helpers; None when a value cannot be pickled
    (then the render is not kept)."""
    try:
        return pickle.dumps((stamp, str(macro_path), values, key, rule_id, side), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None


def reuse(memo: _Memo, render_key: bytes, helpers: GameHelpers) -> tuple[str, etree._ElementTree] | None:
    kept = memo.now.get(render_key) or memo.last.get(render_key)
    if kept is None or not _same_answers(kept.reads, helpers):
        return None
    budget = sandbox.current_budget()
    if budget is not None:
        if budget.iterations < kept.iterations or budget.output < kept.output:
            return None  # rendered for real, it fails where a cold build fails
        budget.iterations -= kept.iterations
        budget.output -= kept.output
    memo.now[render_key] = kept
    return kept.text, copy.deepcopy(kept.tree)


def _same_answers(reads: tuple[tuple[str, bytes, bytes], ...], helpers: GameHelpers) -> bool:
    for name, arguments, answer in reads:
        args, kwargs = pickle.loads(arguments)
        try:
            if _fingerprint(getattr(helpers, name)(*args, **kwargs)) != answer:
                return False
        except Exception:  # it answered before; an error now is a change
            return False
    return True


def _fingerprint(value) -> bytes:
    return pickle.dumps(value, protocol=5)


class RecordingHelpers:
    """GameHelpers as a template sees them, noting each question and answer. The sandbox lets a
    template reach public names only, so __getattr__ sees nothing else."""

    def __init__(self, helpers: GameHelpers):
        self._helpers = helpers
        self._reads: dict[tuple[str, bytes], bytes] = {}
        self._complete = True

    def __getattr__(self, name: str):
        method = getattr(self._helpers, name)
        if not callable(method):
            self._complete = False  # GameHelpers has no public data; should one come, it is not tracked
            return method

        def asked(*args, **kwargs):
            try:
                arguments = pickle.dumps((args, kwargs), protocol=5)
            except Exception:
                self._complete = False
                return method(*args, **kwargs)
            answer = method(*args, **kwargs)
            if (name, arguments) not in self._reads:  # the game does not change during a render
                try:
                    self._reads[name, arguments] = _fingerprint(answer)
                except Exception:
                    self._complete = False
            return answer

        return asked

    def reads(self) -> tuple[tuple[str, bytes, bytes], ...] | None:
        """The questions asked and their answers; None when one could not be recorded."""
        if not self._complete:
            return None
        return tuple((name, arguments, answer) for (name, arguments), answer in self._reads.items())


class Spent:
    """The template budget a render spends (read before and after it)."""

    def __init__(self) -> None:
        budget = sandbox.current_budget()
        self.iterations = budget.iterations if budget else 0
        self.output = budget.output if budget else 0

    def since(self) -> tuple[int, int] | None:
        budget = sandbox.current_budget()
        if budget is None:
            return None
        return self.iterations - budget.iterations, self.output - budget.output


def keep(memo: _Memo, render_key: bytes, recorder: RecordingHelpers, spent: Spent, text: str,
         tree: etree._ElementTree) -> None:
    reads, charge = recorder.reads(), spent.since()
    if reads is None or charge is None or len(memo.now) >= MAX_RENDERS:
        return
    memo.now[render_key] = _Kept(reads, text, copy.deepcopy(tree), *charge)
