"""Write: all-or-nothing output.

One mechanism for every file triplea-gen writes (a build's map folder, a package, one
imported YAML, test results, caches): every file is first written into a staging folder
inside the output folder (made exclusively, with an unguessable name); the files it replaces
are kept there as hard links; a journal recording every target and the identity of each file
it stages and keeps is put in place (inside the staging folder) with one rename; then each
staged file is renamed over its target; removing the journal commits the build. A build killed
at any point leaves either no journal (nothing was touched; the staging folder is stale) or a
journal, and the next write into that folder first rolls the half-applied build back from the
kept files, so the output is always entirely the old build or entirely the new one. Files the
build does not write are never touched (several mods of one map are built into one folder).
A journal is acted on only when all it records is still true (journal.py): one planted in the
folder (an unzipped mod, a cloned project) is refused and touches nothing.

Under the output folder nothing is followed: every folder is opened relative to its
parent with O_NOFOLLOW, a symlink is refused (TG043), and only regular files are
ever replaced (TG044 for device nodes, fifos, folders). Writers hold an exclusive
lock on the output folder, so two builds into one folder take turns."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import stat
import sys
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from collections.abc import Mapping
from typing import Any, BinaryIO, Callable

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.core import journal

if sys.platform == "win32":  # no fcntl there; the lock only serialises concurrent builds
    fcntl = None
else:
    import fcntl

_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.\- ]+")
STAGING_PREFIX = ".triplea-gen-staging-"
JOURNAL_NAME = ".triplea-gen-journal"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def safe_name(name: str, fallback: str = "game") -> str:
    """A file or folder name from user text: no separators, no '..', nothing hidden."""
    cleaned = _SAFE_NAME.sub("_", name).strip(" .")
    cleaned = re.sub(r"\.{2,}", ".", cleaned).replace(" ", "_")
    return cleaned[:100] or fallback


def check_relative(relpath: str, outdir: Path) -> PurePosixPath:
    path = PurePosixPath(relpath)
    if path.parts and (path.parts[0] == JOURNAL_NAME or path.parts[0].startswith(STAGING_PREFIX)):
        raise DiagnosticError([Diagnostic("TG040", f"output path '{relpath}' is a name triplea-gen keeps for "
                                          "itself", Position(str(outdir)), "choose another name")])
    if path.is_absolute() or ".." in path.parts or not path.parts or "\\" in relpath or re.match(r"[A-Za-z]:", relpath):
        raise DiagnosticError([Diagnostic("TG040", f"output path '{relpath}' would escape the output folder",
                                          Position(str(outdir)), "names used in paths may not contain '..' or '/'")])
    return path


def _cannot_write(where, err: OSError | str, hint: str = "check the folder's permissions and free space"
                  ) -> DiagnosticError:
    reason = err if isinstance(err, str) else (err.strerror or str(err))
    return DiagnosticError([Diagnostic("TG041", f"cannot write output: {reason}", Position(display_path(where)),
                                       hint)])


def _refuse_link(where) -> DiagnosticError:
    return DiagnosticError([Diagnostic(
        "TG043", "a symbolic link inside the output folder; refused (output never follows links)",
        Position(display_path(where)), "remove the link, or choose an output folder without links in it")])


def _refuse_kind(where, mode: int) -> DiagnosticError:
    kind = ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a fifo" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return DiagnosticError([Diagnostic(
        "TG044", f"the output would replace {kind}; only regular files are replaced",
        Position(display_path(where)), "choose another output name, or move what is there out of the way")])


def _lstat(name: str, dir_fd: int) -> os.stat_result | None:
    try:
        return os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return None


class _Folders:
    """Folders under the output folder, opened one level at a time without following links."""

    def __init__(self, root: Path, root_fd: int):
        self.root = root
        self.fds: dict[tuple[str, ...], int] = {(): root_fd}

    def open(self, parts: tuple[str, ...], create: list | None = None) -> int | None:
        """The fd of root/parts; None when a part is missing (noted in `create` when given)."""
        if parts in self.fds:
            return self.fds[parts]
        parent = self.open(parts[:-1], create)
        if parent is None:
            if create is not None:
                create.append(parts)
            return None
        info = _lstat(parts[-1], parent)
        if info is None:
            if create is not None:
                create.append(parts)
            return None
        where = self.root.joinpath(*parts)
        if stat.S_ISLNK(info.st_mode):
            raise _refuse_link(where)
        if not stat.S_ISDIR(info.st_mode):
            raise DiagnosticError([Diagnostic("TG044", "a folder is needed here but a file is in the way",
                                              Position(display_path(where)), "move the file out of the way")])
        try:
            self.fds[parts] = os.open(parts[-1], _DIR_FLAGS, dir_fd=parent)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise _refuse_link(where) from None
            raise
        return self.fds[parts]

    def make(self, parts: tuple[str, ...]) -> None:
        os.mkdir(parts[-1], 0o777, dir_fd=self.fds[parts[:-1]])  # the umask applies, as for any tool
        self.open(parts)

    def close(self) -> None:
        for parts, fd in self.fds.items():
            if parts:
                os.close(fd)


@contextmanager
def _locked_folder(outdir: Path):
    """The output folder, created if needed, opened and locked; a half-applied build in it rolled back."""
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise _cannot_write(outdir, "the output folder names something that is not a folder (or a folder "
                            "inside it)", "-o names the folder to build into; choose a folder") from None
    except OSError as err:
        raise _cannot_write(outdir, err) from None
    try:
        root_fd = os.open(outdir, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise _cannot_write(outdir, err) from None
    folders = _Folders(outdir, root_fd)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(root_fd, fcntl.LOCK_EX)  # released when the fd closes, or the process dies
            except OSError as err:
                if err.errno not in (errno.ENOLCK, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
                    raise  # a file system without locks: builds into one folder at once are the user's risk
        _recover(folders)
        yield folders
    finally:
        folders.close()
        os.close(root_fd)


def _recover(folders: _Folders) -> None:
    """Roll back what a killed build left half-done, from the journal in its staging folder, and
    remove stale staging folders; a journal this tool cannot trust stops the write (journal.py)."""
    root_fd = folders.fds[()]
    if _lstat(JOURNAL_NAME, root_fd) is not None:
        # Builds keep their journal in their own staging folder; one here was put by someone else
        # (or by a version of triplea-gen that trusted it blindly): never acted on.
        raise journal.untrusted(folders.root / JOURNAL_NAME, "a journal triplea-gen did not write")
    for name in sorted(os.listdir(root_fd)):
        if not name.startswith(STAGING_PREFIX):
            continue
        info = _lstat(name, root_fd)
        if info is not None and stat.S_ISDIR(info.st_mode):
            staging_fd = os.open(name, _DIR_FLAGS, dir_fd=root_fd)
            try:
                where = folders.root / name / journal.NAME
                found = journal.read(name, staging_fd, where)
                if found is not None:
                    journal.roll_back(found, folders, staging_fd, where)
            finally:
                os.close(staging_fd)
        _remove_tree(name, root_fd)  # only what lies inside a folder of the reserved name; links not followed


def _remove_tree(name: str, dir_fd: int) -> None:
    """Remove name under dir_fd and everything in it, never following a link."""
    info = _lstat(name, dir_fd)
    if info is None:
        return
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(name, dir_fd=dir_fd)
        return
    fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    try:
        for child in os.listdir(fd):
            _remove_tree(child, fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=dir_fd)


def _write_new(name: str, dir_fd: int, content: bytes | Callable[[BinaryIO], None]) -> str:
    """A new file; content is bytes, or a function that writes it to the stream it gets
    (for contents too large to hold in memory, such as an unzipped map). Returns its SHA-256."""
    fd = os.open(name, _NEW_FILE_FLAGS, 0o666, dir_fd=dir_fd)  # the umask applies, as for any tool
    if callable(content):
        with os.fdopen(fd, "wb") as stream:
            content(stream)
        return journal.file_digest(name, dir_fd)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    return hashlib.sha256(content).hexdigest()


def _keep_old(name: str, parent: int, backup: str, staging_fd: int) -> None:
    """The file about to be replaced, kept under staging (a hard link: no copy, and the rename
    that replaces the target leaves the kept inode alone)."""
    try:
        os.link(name, backup, src_dir_fd=parent, dst_dir_fd=staging_fd, follow_symlinks=False)
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=parent)  # no hard links here: a copy
        with os.fdopen(fd, "rb") as stream:
            _write_new(backup, staging_fd, stream.read())


# Mapping, not dict: only read, so a dict[str, bytes] is one too (dict's value type is invariant)
def write_outputs(outdir: str | os.PathLike, files: Mapping[str, bytes | Callable[[BinaryIO], None]]) -> list[Path]:
    """Write every file under outdir, all or nothing; returns the paths written. A file's content
    is bytes or a function writing it to a stream."""
    outdir = Path(outdir)
    relpaths = [(rel, tuple(check_relative(rel, outdir).parts)) for rel in files]
    try:
        with _locked_folder(outdir) as folders:
            missing = _check_targets(folders, relpaths)
            _stage_and_apply(folders, relpaths, files, missing)
    except OSError as err:  # unreadable subfolders, a full disk, a read-only folder, ...
        raise _cannot_write(outdir, err) from None
    return [outdir.joinpath(*parts) for _, parts in relpaths]


def _check_targets(folders: _Folders, relpaths) -> list[tuple[str, ...]]:
    """Refuse links and anything but regular files where the files go; the folders to make."""
    missing: list[tuple[str, ...]] = []
    for _, parts in relpaths:
        parent = folders.open(parts[:-1], missing)
        info = _lstat(parts[-1], parent) if parent is not None else None
        if info is not None and stat.S_ISLNK(info.st_mode):
            raise _refuse_link(folders.root.joinpath(*parts))
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise _refuse_kind(folders.root.joinpath(*parts), info.st_mode)
    return list(dict.fromkeys(missing))


def _stage_and_apply(folders: _Folders, relpaths, files, missing) -> None:
    root_fd = folders.fds[()]
    staging = f"{STAGING_PREFIX}{secrets.token_hex(12)}"  # made exclusively: never one already there
    os.mkdir(staging, 0o700, dir_fd=root_fd)
    try:
        staging_fd = os.open(staging, _DIR_FLAGS, dir_fd=root_fd)
        try:
            _apply(folders, staging, staging_fd, relpaths, files, missing)
        finally:
            os.close(staging_fd)
    finally:
        try:
            if _lstat(f"{staging}/{journal.NAME}", root_fd) is None:  # else a rollback failed: kept for the user
                _remove_tree(staging, root_fd)
        except OSError:
            pass  # removed by the next write


def _apply(folders: _Folders, staging: str, staging_fd: int, relpaths, files, missing) -> None:
    """Stage every file, then (after the journal is in place) move them over their targets. The
    journal records the identity of everything it may later touch (journal.py)."""
    folder_id = journal.identity(os.fstat(staging_fd))
    record: dict[str, Any] = {"version": journal.VERSION, "staging": staging,
                              "staging_id": {"dev": folder_id["dev"], "ino": folder_id["ino"]},
                              "files": [], "folders": ["/".join(parts) for parts in missing]}
    for index, (rel, parts) in enumerate(relpaths):
        digest = _write_new(f"n{index}", staging_fd, files[rel])
        entry = {"path": rel, "new": dict(journal.identity(os.lstat(f"n{index}", dir_fd=staging_fd)), sha256=digest),
                 "old": None, "backup": None}
        parent = folders.fds.get(parts[:-1])
        old = _lstat(parts[-1], parent) if parent is not None else None
        if old is not None and parent is not None:  # (an old file is only found in a folder that exists)
            backup = f"o{index}"
            _keep_old(parts[-1], parent, backup, staging_fd)
            entry["old"] = journal.identity(old)
            entry["backup"] = dict(journal.identity(os.lstat(backup, dir_fd=staging_fd)), name=backup)
        record["files"].append(entry)
    if len(relpaths) == 1 and not missing:
        # One file in a folder that exists: a single rename is all or nothing by itself.
        (_, parts), = relpaths
        os.replace("n0", parts[-1], src_dir_fd=staging_fd, dst_dir_fd=folders.fds[parts[:-1]])
        return
    _write_new(f"{journal.NAME}.new", staging_fd, json.dumps(record).encode("utf-8"))
    os.rename(f"{journal.NAME}.new", journal.NAME, src_dir_fd=staging_fd, dst_dir_fd=staging_fd)
    try:
        for parts in missing:
            folders.make(parts)
        for index, (_, parts) in enumerate(relpaths):
            os.replace(f"n{index}", parts[-1], src_dir_fd=staging_fd, dst_dir_fd=folders.fds[parts[:-1]])
    except BaseException:
        # a failed rename (or Ctrl-C) leaves the old build, not a mix
        journal.roll_back(record, folders, staging_fd, folders.root / staging / journal.NAME)
        os.unlink(journal.NAME, dir_fd=staging_fd)
        raise
    os.unlink(journal.NAME, dir_fd=staging_fd)  # the commit point


def write_file_atomically(path: str | os.PathLike, content: bytes) -> Path:
    """One file, replaced in a single step (staged next to it, then one rename); never through a
    link, never over anything but a regular file."""
    path = Path(path)
    if path.name in ("", ".", ".."):
        raise _cannot_write(path, "the output names a folder, not a file", "name the file to write")
    return write_outputs(path.parent, {path.name: content})[0]


def read_output(outdir: str | os.PathLike, relpath: str, limit: int = 64 * 1024 * 1024) -> bytes | None:
    """A file the tool wrote earlier under outdir, read the way it is written: no link under
    outdir followed, only a regular file read; None when there is none (or it is anything else,
    or larger than limit)."""
    outdir = Path(outdir)
    parts = tuple(check_relative(relpath, outdir).parts)
    try:
        root_fd = os.open(outdir, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    folders = _Folders(outdir, root_fd)
    try:
        parent = folders.open(parts[:-1])
        # O_NONBLOCK: a FIFO planted at the name must not block the open (it is refused below)
        fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                     dir_fd=parent) if parent is not None else None
        if fd is None:
            return None
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            data = stream.read(limit + 1)
        return data if len(data) <= limit else None
    except (OSError, DiagnosticError):
        return None
    finally:
        folders.close()
        os.close(root_fd)


def new_private_file(path: str | os.PathLike) -> BinaryIO:
    """A stream to a file made afresh (for a log another process writes to as it goes, which
    cannot be staged): what stood at the name is removed first (a link itself, never what it
    points to), then the file is made exclusively, without following a link, readable only by
    this user."""
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise _refuse_kind(path, info.st_mode)
        os.unlink(path)
    fd = os.open(path, _NEW_FILE_FLAGS, 0o600)
    return os.fdopen(fd, "wb")
