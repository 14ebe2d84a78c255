"""The one way files of a map folder are read. Players unzip mods straight into downloadedMaps and
modders build into it, so whatever is in a map folder (or an output folder) may have been planted
by a zip: a link to one of the user's files, a FIFO that blocks every read, a file of gigabytes.

Every read starts at a root the user named (a base map, `--map-dir`, the output folder: that
root may itself be a link) and walks down one folder at a time by descriptor, so:

- no link is followed, neither the file nor a folder on the way below the root (TG003);
- only regular files are read: a FIFO, device or socket is refused without blocking (TG004);
- each kind of file has a size bound far past any real map's (TG005);

and each refusal names the file. A file or folder that is not there is simply absent (None)."""
from __future__ import annotations

import errno
import functools
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path

_MiB = 1024 * 1024
# Per kind, far past the real maps: Global 1940's polygons.txt is 1.3 MB, its largest
# .properties 160 KB, its map.yml 500 bytes; unit and flag images are a few KB.
LIMITS = {
    "listing": 1 * _MiB,  # map.yml
    "properties": 16 * _MiB,
    "points": 64 * _MiB,  # polygons.txt, centers.txt, place.txt, ...
    "image": 16 * _MiB,
    "file": 64 * _MiB,
}
_CHUNK = _MiB

# Tracing (warm processes, generator.builder.warmfolder): every answer the reads below gave while a
# stage ran, by call, so that the stage's result can be reused while each call still answers the same.
_trace: "Trace | None" = None
_MISSING = object()
_F = TypeVar("_F", bound=Callable[..., Any])


class Trace(dict):
    """(read, its arguments) -> its answer; `mixed`: a call answered two ways within the stage."""
    mixed: bool = False


@contextmanager
def tracing() -> Iterator[Trace]:
    """The reads made inside the block, with their answers (a read that raises is not recorded:
    the stage fails, and nothing is reused from a failed stage)."""
    global _trace
    outer, _trace = _trace, Trace()
    try:
        yield _trace
    finally:
        inner, _trace = _trace, outer
        if outer is not None:  # an enclosing trace holds the inner reads too
            for key, answer in inner.items():
                _record(key, answer)


def _record(key: tuple, answer: Any) -> None:
    assert _trace is not None
    kept = _trace.get(key, _MISSING)
    if kept is _MISSING:
        _trace[key] = answer
    elif kept != answer:  # changed while the stage ran: never to be vouched for
        _trace.mixed = True


def _traced(read: _F) -> _F:
    @functools.wraps(read)
    def answered(*args: Any, **options: Any) -> Any:
        answer = read(*args, **options)
        if _trace is not None:
            _record((answered, tuple(tuple(a) if isinstance(a, list) else a for a in args),
                     tuple(sorted(options.items()))), answer)
        return answer
    return answered  # type: ignore[return-value]


def still_answered(trace: Trace) -> bool:
    """Whether every read of the trace gives the answer it gave (asked again, untraced)."""
    if trace.mixed:
        return False
    global _trace
    outer, _trace = _trace, None
    try:
        for (read, args, options), answer in trace.items():
            try:
                if read(*args, **dict(options)) != answer:
                    return False
            except (DiagnosticError, OSError):
                return False
        return True
    finally:
        _trace = outer
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def kind_of(relpath: str) -> str:
    """The size class of a map folder file, by its name."""
    name = relpath.rsplit("/", 1)[-1].lower()
    if name in ("map.yml", "map.yaml"):
        return "listing"
    if name.endswith(".properties"):
        return "properties"
    if name.endswith(".txt"):
        return "points"
    if name.endswith((".png", ".gif", ".jpg", ".jpeg")):
        return "image"
    return "file"


def _refused(code: str, message: str, path: Path, hint: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, Position(display_path(path)), hint)])


def _link(path: Path) -> DiagnosticError:
    return _refused("TG003", "a symbolic link in a map folder; links there are never followed", path,
                    "a map folder may come from a zip and a link could read any file of yours; replace the link "
                    "by the file it points to, after checking what it is")


def _special(path: Path) -> DiagnosticError:
    return _refused("TG004", "not a regular file (a FIFO, device or socket); refused", path,
                    "a map folder holds plain files and folders; remove it")


def _parts(relpath: str) -> list[str] | None:
    """The names on the way down; None for a path that would climb out (a player or unit named
    '..' in a game): nothing outside the folder is a file of it."""
    parts = [p for p in relpath.replace("\\", "/").split("/") if p not in ("", ".")]
    return None if ".." in parts else parts


def _lstat(name: str, folder_fd: int):
    try:
        return os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _open_folder(root: Path, parts: list[str]) -> int | None:
    """A descriptor of root/parts..., or None when a part is missing or not a folder; a link
    among the parts is refused."""
    try:
        fd = os.open(root, _DIR_FLAGS)  # the root the user named may be a link
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        raise _refused("TG001", f"cannot read folder: {err.strerror}", root, "check permissions") from None
    path = root
    try:
        for part in parts:
            path = path / part
            info = _lstat(part, fd)
            if info is None or not (stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode)):
                os.close(fd)
                return None
            if stat.S_ISLNK(info.st_mode):
                raise _link(path)
            try:  # O_NOFOLLOW: a folder swapped for a link since the lstat is refused, not followed
                child = os.open(part, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as err:
                if err.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _link(path) from None
                raise _refused("TG001", f"cannot read folder: {err.strerror}", path, "check permissions") from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _regular(root: Path, relpath: str) -> tuple[int, str, Path] | None:
    """(descriptor of the folder, file name, path) of a regular file, None when absent or a folder."""
    parts = _parts(relpath)
    if not parts:
        return None
    fd = _open_folder(root, parts[:-1])
    if fd is None:
        return None
    path = root.joinpath(*parts)
    try:
        info = _lstat(parts[-1], fd)
        if info is None or stat.S_ISDIR(info.st_mode):
            os.close(fd)
            return None
        if stat.S_ISLNK(info.st_mode):
            raise _link(path)
        if not stat.S_ISREG(info.st_mode):
            raise _special(path)
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1], path


def refuse_link(path: Path) -> None:
    """TG003 when path (a folder below a map root that is read from as a root) is a link."""
    if os.path.islink(path):
        raise _link(path)


@_traced
def map_file_exists(root: str | os.PathLike, relpath: str) -> bool:
    """Whether root/relpath is a regular file reached without a link (a link or special file: refused)."""
    found = _regular(Path(root), relpath)
    if found is None:
        return False
    os.close(found[0])
    return True


class FolderListings:
    """map_file_exists for one build that asks about hundreds of files in a few dozen folders
    (a mod's flags and unit images): each folder is walked down to and listed once, and the
    answers come from the listing. A name the listing does not hold exactly but matches when
    case and Unicode normalisation are ignored is asked of the file system itself (a folder on a
    case-insensitive disk finds it), so every answer and refusal is map_file_exists's. Kept for
    one build only: a file added since is seen by the next build."""

    def __init__(self):
        self._folders: dict[tuple[str, tuple[str, ...]], tuple[dict[str, str], set[str]] | None] = {}

    def exists(self, root: str | os.PathLike, relpath: str) -> bool:
        parts = _parts(relpath)
        if not parts:
            return False
        key = (os.fspath(root), tuple(parts[:-1]))
        if key not in self._folders:
            self._folders[key] = _kept_listing(Path(root), parts[:-1])  # a link on the way: refused, not kept
        listing = self._folders[key]
        if listing is None:
            return False
        kinds, loose = listing
        kind = kinds.get(parts[-1])
        if kind is None:
            return _loose_name(parts[-1]) in loose and map_file_exists(root, relpath)
        if kind == "file":  # the usual answer: no Path made (a build asks thousands of times)
            return True
        if kind == "link":
            raise _link(Path(root).joinpath(*parts))
        if kind == "special":
            raise _special(Path(root).joinpath(*parts))
        return False


# Warm processes (watch, the build server, the language server) keep listings across builds: a base
# map's unit and flag folders do not change while a mod is edited. A kept listing is used only while
# every folder on its way has the stamp it had (same inode, modification and change times: an entry
# added, removed, renamed or swapped for a link changes its folder's), and only listings of folders
# that had been left alone for SETTLED_NS before they were listed are kept (a change within the
# file system's clock tick after the listing would otherwise not show in the stamp).
_kept: dict[tuple[str, tuple[str, ...]], tuple[tuple, tuple[dict[str, str], set[str]]]] | None = None
KEPT_LISTINGS = 4096
SETTLED_NS = 2_000_000_000


def keep_listings() -> None:
    """Called by processes that build many times."""
    global _kept
    if _kept is None:
        _kept = {}


@_traced
def _kept_listing(root: Path, folder: list[str]) -> tuple[dict[str, str], set[str]] | None:
    if _kept is None:
        return _listing(root, folder)
    key = (os.fspath(root), tuple(folder))
    stamps = _stamps(root, folder)
    kept = _kept.get(key)
    if stamps is not None and kept is not None and kept[0] == stamps:
        return kept[1]
    listing = _listing(root, folder)
    _kept.pop(key, None)
    if listing is not None and stamps is not None and _settled(stamps) and _stamps(root, folder) == stamps:
        _kept[key] = (stamps, listing)
        while len(_kept) > KEPT_LISTINGS:
            _kept.pop(next(iter(_kept)))
    return listing


def _stamps(root: Path, folder: list[str]) -> tuple | None:
    """(device, inode, mtime, ctime) of root (followed: the user may name a link) and of each folder
    below it on the way (not followed); None when one is missing, not a folder, or a link."""
    stamps = []
    path = os.fspath(root)
    try:
        info = os.stat(path)
        for part in [None, *folder]:
            if part is not None:
                path = os.path.join(path, part)
                info = os.lstat(path)
            if not stat.S_ISDIR(info.st_mode):
                return None
            stamps.append((info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns))
    except OSError:
        return None
    return tuple(stamps)


def _settled(stamps: tuple) -> bool:
    import time

    now = time.time_ns()
    return all(now - max(mtime, ctime) > SETTLED_NS for _, _, mtime, ctime in stamps)


def _loose_name(name: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFC", name).casefold()


def _listing(root: Path, folder: list[str]) -> tuple[dict[str, str], set[str]] | None:
    """Name -> "file", "folder", "link" or "special" of one folder's entries (not followed), and
    their names as _loose_name has them; None when the folder is not there."""
    fd = _open_folder(root, folder)
    if fd is None:
        return None
    kinds = {}
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                # The kind the folder listing itself gives (no stat of each of a map's thousands of
                # files; where a file system gives none, DirEntry asks lstat by descriptor, fd open)
                kinds[entry.name] = ("link" if entry.is_symlink() else "folder" if entry.is_dir(follow_symlinks=False)
                                     else "file" if entry.is_file(follow_symlinks=False) else "special")
    finally:
        os.close(fd)
    return kinds, {_loose_name(name) for name in kinds}


@_traced
def read_map_file(root: str | os.PathLike, relpath: str, kind: str | None = None) -> bytes | None:
    """The bytes of root/relpath, None when there is no such file. Refused: a link (the file or a
    folder below root), anything but a regular file, more bytes than its kind allows."""
    root = Path(root)
    found = _regular(root, relpath)
    if found is None:
        return None
    folder_fd, name, path = found
    limit = LIMITS[kind or kind_of(relpath)]
    try:
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=folder_fd)
        except FileNotFoundError:
            return None
        except OSError as err:
            if err.errno == errno.ELOOP:  # replaced by a link since the lstat
                raise _link(path) from None
            raise _refused("TG001", f"cannot read file: {err.strerror}", path, "check permissions") from None
    finally:
        os.close(folder_fd)
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _special(path)
        if info.st_size > limit:
            raise _too_big(path, info.st_size, limit)
        chunks, total = [], 0
        while chunk := stream.read(min(_CHUNK, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew since the fstat
                raise _too_big(path, total, limit)
    return b"".join(chunks)


def _too_big(path: Path, size: int, limit: int) -> DiagnosticError:
    return _refused("TG005", f"{size} bytes, more than the {limit} allowed for this kind of map folder file",
                    path, "no real map has a file this large; is it damaged, or planted by a zip?")


@_traced
def list_map_folder(root: str | os.PathLike, relpath: str) -> tuple[list[str], list[str]]:
    """(sub-folders, regular files) of root/relpath, sorted; links and special files are left
    out (they are never read), a link among the folders on the way is refused."""
    parts = _parts(relpath)
    fd = _open_folder(Path(root), parts) if parts is not None else None
    if fd is None:
        return [], []
    folders, files = [], []
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                elif entry.is_file(follow_symlinks=False):
                    files.append(entry.name)
    finally:
        os.close(fd)
    return sorted(folders), sorted(files)


@_traced
def engine_file_exists(path: str | os.PathLike) -> bool:
    """A file of an engine's installed assets (the engine's own install: links are its packager's)."""
    return os.path.isfile(path)
