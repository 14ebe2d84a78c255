"""A sandbox for running one triplea-gen command as a hostile input's victim would, and checking
afterwards that it kept to its output folder:

    sandbox/sentinel.txt        beside the output folder: must stay as it was
    sandbox/user/...            the user's own files: must stay as they were
    sandbox/input/...           the spec, game XMLs and macros the command reads: must stay as they were
    sandbox/out/...             the output folder, holding another mod's game, its map.yml entry and
                                texts, and a file of the user's: must all survive (merged files may
                                only gain entries)

Every path outside out/ is compared by type, size, modification time and SHA-256 before and after;
the command's temporary folder must be left empty."""
from __future__ import annotations

import hashlib
import os
import resource
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from conftest import REPO

MEMORY_LIMIT = 1536 * 1024 * 1024  # address space: a build of a small game fits well inside
SECONDS = 60  # far above any case here (a few seconds); reaching it is a hang
# Files a build merges into (they keep what they had and may gain entries); anything else already
# in the output folder must keep its bytes.
MERGED = ("map.yml", ".properties")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass
class Outcome:
    status: int | None  # None: killed at the time limit
    seconds: float
    stdout: str
    stderr: str


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple]:
    """Every path under root (not followed into links), but `skip`'s subtree: its kind, size,
    modification time and content hash."""
    found: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        if skip is not None and (here == skip or skip in here.parents):
            dirs[:] = []
            continue
        for name in dirs + files:
            path = here / name
            if skip is not None and path == skip:
                continue
            info = os.lstat(path)
            digest = None
            if stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[str(path.relative_to(root))] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns, digest)
    return found


def run_command(args: list[str], cwd: Path, env_extra: dict[str, str], memory_limit: bool = True,
                seconds: float = SECONDS) -> Outcome:
    env = dict(os.environ, TRIPLEA_GEN_NO_SERVER="1", PYTHONPATH=str(REPO), NO_COLOR="1", **env_extra)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "generator", *args], env=env, cwd=cwd, capture_output=True,
                              text=True, errors="replace", timeout=seconds,
                              preexec_fn=_limit_memory if memory_limit else None)
    except subprocess.TimeoutExpired as expired:
        return Outcome(None, time.monotonic() - started, str(expired.stdout or ""), str(expired.stderr or ""))
    return Outcome(done.returncode, time.monotonic() - started, done.stdout, done.stderr)


class Sandbox:
    def __init__(self, root: Path, shared_map: Path | None):
        """root: an empty folder; shared_map: a map folder (another mod's build) to put in the output
        folder, as a map folder several mods were built into."""
        self.root = root
        self.out = root / "out"
        self.input = root / "input"
        self.temp = root.parent / f"{root.name}-tmp"  # the command's TMPDIR, outside the sandbox
        for folder in (self.out, self.input, root / "user" / "documents", self.temp):
            folder.mkdir(parents=True)
        (root / "sentinel.txt").write_text("the user's file beside the output folder\n")
        (root / "user" / "documents" / "plans.txt").write_text("the user's own file\n")
        (root / "user" / "game.xml").write_text("<game/>\n")
        (self.out / "kept.txt").write_text("a file of the user's in the output folder\n")
        if shared_map is not None:
            shutil.copytree(shared_map, self.out / shared_map.name)
        self.before_outside = None
        self.before_inside = None

    def freeze(self) -> None:
        self.before_outside = snapshot(self.root, skip=self.out)
        self.before_inside = {rel: self.out.joinpath(rel).read_bytes() for rel, entry in snapshot(self.out).items()
                              if entry[0] == stat.S_IFREG}

    def problems(self, check_temp: bool = True) -> list[str]:
        """What the command changed that it must not have."""
        found = []
        after = snapshot(self.root, skip=self.out)
        for rel in sorted(set(after) | set(self.before_outside)):
            if after.get(rel) != self.before_outside.get(rel):
                what = "created" if rel not in self.before_outside else "removed" if rel not in after else "changed"
                found.append(f"outside the output folder: {rel} {what}")
        for rel, data in self.before_inside.items():
            if rel.startswith(".triplea-gen-"):
                continue  # a journal or staging folder: names triplea-gen keeps for itself
            path = self.out / rel
            if path.is_symlink() or not path.is_file():
                found.append(f"in the output folder: the user's {rel} is gone")
                continue
            now = path.read_bytes()
            if rel.endswith(MERGED):
                found += _lost_entries(rel, data, now)
            elif now != data:
                found.append(f"in the output folder: the user's {rel} was changed")
        if check_temp and self.temp.exists() and any(self.temp.iterdir()):
            found.append(f"left in its temporary folder: {sorted(p.name for p in self.temp.iterdir())}")
        return found


def _lost_entries(rel: str, before: bytes, after: bytes) -> list[str]:
    """A merged file may gain entries, never lose one it had."""
    if rel.endswith("map.yml"):
        def games(data: bytes) -> set[tuple[str, str]]:
            try:
                parsed = yaml.safe_load(data.decode("utf-8"))
            except (yaml.YAMLError, UnicodeDecodeError):
                return set()
            listed = parsed.get("games") if isinstance(parsed, dict) else None
            return {(str(g.get("file_name")), str(g.get("game_name"))) for g in listed or [] if isinstance(g, dict)}
        lost = games(before) - games(after)
        return [f"in the output folder: {rel} lost the entries {sorted(lost)}"] if lost else []
    lines_after = set(after.splitlines())
    lost = [line for line in before.splitlines() if line.strip() and line not in lines_after]
    return [f"in the output folder: {rel} lost the lines {lost[:3]}"] if lost else []
