"""Parsed YAML of the data files every build reads (the option catalog, macro headers), kept
between runs in the user's cache folder, keyed by a hash of the text: loading it back takes a
small fraction of the time libyaml needs to parse it. Data that marshal cannot hold (dates,
say) is simply not kept, and a cache that cannot be written is no error. Also the check every
cache folder goes through (cache_folder), and the one the build server's socket folder shares.

Imported by the build server's client too, so it imports yaml only when it parses."""
from __future__ import annotations

import hashlib
import marshal
import os
import stat
from functools import lru_cache
from pathlib import Path


def cache_folder(name: str) -> Path | None:
    """~/.cache/triplea-gen/NAME (or under $XDG_CACHE_HOME), made if missing; None unless it is
    private. Every cache goes through here: the caches hold pickles, marshalled data and compiled
    code, which run code when loaded, so a folder anybody else could have put a file into (or
    swapped: a folder above it they may write to) is not used."""
    if not hasattr(os, "getuid"):
        return None  # no owners to check
    home, folder = _cache_path(name, os.environ.get("XDG_CACHE_HOME") or "", os.environ.get("HOME") or "")
    ours = folder.parent
    if not folder.is_dir():  # made again if removed while a long-lived process (watch, server) runs
        for level in (ours, folder):
            try:
                # safe-write: a folder only (mkdir never follows a link at the name it makes); the
                # checks below refuse it unless it is a private folder of this user
                level.mkdir(parents=level == ours, mode=0o700)
            except FileExistsError:
                pass
            except OSError:
                return None
    if not _closed_to_others(home, owners=(os.getuid(), 0)):
        return None
    return folder if is_private_folder(ours, closed_to=0o022) and is_private_folder(folder, closed_to=0o022) else None


@lru_cache(maxsize=64)
def _cache_path(name: str, cache_home: str, home: str) -> tuple[Path, Path]:
    # Worked out once per process and place: a build asks once per data file it reads.
    root = Path(cache_home or Path(home or Path.home()) / ".cache")
    return root, root / "triplea-gen" / name


def _closed_to_others(folder: Path, owners: tuple[int, ...]) -> bool:
    """A folder (not a link) owned by one of owners that no group or other may write to."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid in owners and not info.st_mode & 0o022


def is_private_folder(folder: str | os.PathLike, closed_to: int = 0o077) -> bool:
    """A folder (not a link) of this user that nobody else may do `closed_to` in (default: anything)."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & closed_to


def write_quietly(path: Path, blob: bytes) -> bool:
    """Replace path with blob in one step, through the safe writer (a temporary file made
    exclusively, then a rename; never through a link, never over anything but a regular file);
    False if it cannot be written."""
    from generator.core.diagnostics import DiagnosticError
    from generator.core.writer import write_file_atomically

    try:
        write_file_atomically(path, blob)
    except (OSError, DiagnosticError):
        return False
    return True


def package_stamp() -> str:
    """The package version and every source and data file of the package (its path, modification
    time and size): a key part for what a cache keeps that code of the package worked out, so that
    an upgrade or an edit of any of it misses the old entries. Worked out once per process (about
    a millisecond for 160 files)."""
    return _package_stamp(str(Path(__file__).resolve().parents[1]))


@lru_cache(maxsize=4)
def _package_stamp(package: str) -> str:
    from generator import __version__

    stamps = [__version__]
    for root, folders, files in os.walk(package):
        folders[:] = sorted(folder for folder in folders if folder != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".yaml", ".json", ".xsd", ".j2")):
                info = os.stat(os.path.join(root, name))
                stamps.append(f"{os.path.relpath(os.path.join(root, name), package)}:{info.st_mtime_ns}:{info.st_size}")
    return "|".join(stamps)


def read_cached(kind: str, key: str, suffix: str) -> bytes | None:
    """The bytes kept under key in the private cache folder `kind` (None: none, or no private
    folder); marked recently used, so that trimming keeps it."""
    folder = cache_folder(kind)
    if folder is None:
        return None
    stored = folder / f"{key}{suffix}"
    try:
        blob = stored.read_bytes()
        os.utime(stored)  # safe-write: a time only, in a private folder
    except OSError:
        return None
    return blob


def store_cached(kind: str, key: str, suffix: str, blob: bytes, keep: int) -> None:
    """Keep blob under key in the private cache folder `kind`, and only the `keep` most recently
    used files of that suffix there; quietly nothing when it cannot be written."""
    folder = cache_folder(kind)
    if folder is None or not write_quietly(folder / f"{key}{suffix}", blob):
        return
    try:
        kept = sorted(folder.glob(f"*{suffix}"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[keep:]:
            old.unlink()  # safe-write: removes the name itself (a link is not followed), in a private folder
    except OSError:
        pass  # trimmed by the next store that can


_READER = "safe, no aliases\0"


def load_yaml_text(text: str):
    """yaml.safe_load(text), from the cache when this exact text was parsed before."""
    folder = cache_folder("yaml")
    # The key names the reader too: only what this reader accepted (no anchors or aliases) is
    # found again, never data an earlier version parsed from the same text.
    key = hashlib.sha256(_READER.encode("ascii") + text.encode("utf-8")).hexdigest()[:40]
    path = folder / f"{key}.marshal" if folder else None
    if path is not None:
        try:
            return marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            pass
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if "&" in text or "*" in text:
        _refuse_anchors(text, loader)
    data = yaml.load(text, Loader=loader)
    if path is not None:
        try:
            write_quietly(path, marshal.dumps(data))
        except ValueError:
            pass  # marshal cannot hold it
    return data


def _refuse_anchors(text: str, loader) -> None:
    """Macro headers come from a spec's own macro folder too, which may come from anybody: an
    alias could expand without bound in whatever walks the data. None of these files needs one."""
    import yaml

    scanner = loader(text)
    try:
        while scanner.check_event():
            event = scanner.get_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                raise yaml.composer.ComposerError(None, None, "an anchor or alias; refused here (write each "
                                                  "value out)", event.start_mark)
    finally:
        scanner.dispose()
