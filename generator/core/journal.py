"""Write: the journal that lets the next write roll back a build killed half-way, and the checks
that keep anybody else's journal from steering that rollback.

Output folders are shared with what players unzip and modders clone, so a journal found there
is untrusted until proven ours. It is trusted only when everything it records is still true:
it lies in a staging folder whose device and inode it names (a folder made by this build with
an unguessable name; a planted folder has other numbers), and every file it would touch is
exactly the file the build put there (device, inode, size, modification time to the nanosecond
and SHA-256) or the one it found there. A rollback then replaces or removes only the files the
build itself put in place, puts back only the kept files whose identity it recorded, and
removes only the folders it made, and only when empty. A journal failing any check is
refused with a located error before anything is touched."""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from typing import TypeGuard
from pathlib import PurePosixPath

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path

VERSION = 2
NAME = "journal"  # inside the staging folder; put in place whole by one rename
MAX_BYTES = 64 * 1024 * 1024
_BACKUP_NAME = re.compile(r"o[0-9]{1,9}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_IDENTITY = ("dev", "ino", "size", "mtime_ns")


def identity(info: os.stat_result) -> dict[str, int]:
    """What tells one file apart from every other, and from itself once rewritten."""
    return {"dev": info.st_dev, "ino": info.st_ino, "size": info.st_size, "mtime_ns": info.st_mtime_ns}


def same(info: os.stat_result | None, recorded: dict | None) -> bool:
    return info is not None and recorded is not None and identity(info) == {k: recorded[k] for k in _IDENTITY}


def file_digest(name: str, dir_fd: int) -> str:
    """SHA-256 of a regular file, read without following a link."""
    digest = hashlib.sha256()
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
    with os.fdopen(fd, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def untrusted(where, why: str, code: str = "TG045") -> DiagnosticError:
    return DiagnosticError([Diagnostic(
        code, f"{why}; refused, nothing in the output folder was changed", Position(display_path(where)),
        "a build killed half-way leaves a staging folder with a journal, which the next build undoes; this one "
        "cannot be undone safely (not written by triplea-gen, or its files changed since). Look at the "
        "journal (it is JSON: the files it names and what it kept), put back by hand what you need, then "
        "remove the folder it is in (rm -r) and build again")])


def _is_identity(value) -> TypeGuard[dict]:
    return isinstance(value, dict) and all(type(value.get(k)) is int and value[k] >= 0 for k in _IDENTITY)


def _relative_parts(text) -> tuple[str, ...] | None:
    if not isinstance(text, str) or "\\" in text or "\0" in text:
        return None
    path = PurePosixPath(text)
    if path.is_absolute() or not path.parts or any(p in ("..", ".") for p in path.parts):
        return None
    return tuple(path.parts)


def _parts_of_well_formed(text: str) -> tuple[str, ...]:
    """The parts of a path of a journal _well_formed accepted (it refuses one without)."""
    parts = _relative_parts(text)
    if parts is None:
        raise ValueError(f"not a journal path: {text!r}")
    return parts


def read(staging: str, staging_fd: int, where) -> dict | None:
    """The journal in a staging folder, checked for shape and for lying in the folder it names;
    None when there is none (a build that had not begun moving files, or had committed)."""
    try:
        fd = os.open(NAME, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=staging_fd)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise untrusted(where, f"a journal that cannot be opened ({err.strerror})") from None
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise untrusted(where, "a journal that is not a regular file")
        data = stream.read(MAX_BYTES + 1)
    try:
        journal = json.loads(data) if len(data) <= MAX_BYTES else None
    except ValueError:
        journal = None
    if not _well_formed(journal, staging):
        raise untrusted(where, "a journal triplea-gen did not write (or cannot read)")
    if journal["staging_id"] != {k: v for k, v in identity(os.fstat(staging_fd)).items() if k in ("dev", "ino")}:
        raise untrusted(where, "a journal in a folder other than the one it was written in (copied or unzipped "
                        "there)")
    return journal


def _well_formed(journal, staging: str) -> TypeGuard[dict]:
    if not isinstance(journal, dict) or journal.get("version") != VERSION or journal.get("staging") != staging:
        return False
    files, folders, staging_id = journal.get("files"), journal.get("folders"), journal.get("staging_id")
    if not (isinstance(files, list) and isinstance(folders, list) and isinstance(staging_id, dict)
            and set(staging_id) == {"dev", "ino"} and all(type(v) is int for v in staging_id.values())):
        return False
    paths = set()
    for entry in files:
        if not isinstance(entry, dict) or _relative_parts(entry.get("path")) is None:
            return False
        new, old, backup = entry.get("new"), entry.get("old"), entry.get("backup")
        if not (_is_identity(new) and isinstance(new.get("sha256"), str) and _SHA256.fullmatch(new["sha256"])):
            return False
        if (old is None) != (backup is None) or (old is not None and not _is_identity(old)):
            return False
        if backup is not None and not (_is_identity(backup) and isinstance(backup.get("name"), str)
                                       and _BACKUP_NAME.fullmatch(backup["name"])):
            return False
        paths.add(_parts_of_well_formed(entry["path"]))
    # A folder the build made holds a file the build wrote: anything else was never ours.
    for folder in folders:
        parts = _relative_parts(folder)
        if parts is None or not any(p[:len(parts)] == parts and len(p) > len(parts) for p in paths):
            return False
    return True


def plan(journal: dict, folders, staging_fd: int, where) -> list[tuple]:
    """What rolling the journal back does, each step checked against what is on disk now:
    ("restore", parent_fd, name, backup) or ("remove", parent_fd, name). Raises (nothing
    touched) when any file it names is neither the one the build put there nor the one it found."""
    steps: list[tuple] = []
    for entry in journal["files"]:
        parts = _parts_of_well_formed(entry["path"])
        target = folders.root.joinpath(*parts)
        try:
            parent = folders.open(parts[:-1])
        except DiagnosticError:
            raise untrusted(where, f"the journal names '{entry['path']}', and a link or a file now stands in its "
                            "path", "TG046") from None
        current = os.lstat(parts[-1], dir_fd=parent) if parent is not None and _exists(parts[-1], parent) else None
        if current is None or same(current, entry["old"]) or same(current, entry["backup"]):
            continue  # not moved yet, put back already (a rollback cut short), or removed since: nothing to undo
        if not same(current, entry["new"]) or not stat.S_ISREG(current.st_mode) \
                or file_digest(parts[-1], parent) != entry["new"]["sha256"]:
            raise untrusted(where, f"the journal names '{display_path(target)}', which is not the file that build "
                            "put there", "TG046")
        backup = entry["backup"]
        if backup is None:
            steps.append(("remove", parent, parts[-1]))
            continue
        kept = os.lstat(backup["name"], dir_fd=staging_fd) if _exists(backup["name"], staging_fd) else None
        if kept is None or not stat.S_ISREG(kept.st_mode) or not same(kept, backup):
            raise untrusted(where, f"the file the journal kept of '{entry['path']}' is missing or not the one it "
                            "kept", "TG046")
        steps.append(("restore", parent, parts[-1], backup["name"]))
    return steps


def _exists(name: str, dir_fd: int) -> bool:
    try:
        os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    return True


def roll_back(journal: dict, folders, staging_fd: int, where) -> None:
    """Undo what the journal's build did, after checking all of it (plan)."""
    for step in reversed(plan(journal, folders, staging_fd, where)):
        if step[0] == "restore":
            os.replace(step[3], step[2], src_dir_fd=staging_fd, dst_dir_fd=step[1])
        else:
            os.unlink(step[2], dir_fd=step[1])
    for folder in reversed(journal["folders"]):
        parts = _parts_of_well_formed(folder)
        try:
            parent = folders.open(parts[:-1])
            if parent is not None:
                opened = folders.fds.pop(parts, None)
                if opened is not None:
                    os.close(opened)
                os.rmdir(parts[-1], dir_fd=parent)  # only ever an empty folder
        except (OSError, DiagnosticError):
            pass  # not empty (files put there since) or gone: left as it is
