"""Parsed YAML of the data files every build reads (the option catalog, macro headers), kept
between runs in the user's cache folder, keyed by a hash of the text: loading it back takes a
small fraction of the time libyaml needs to parse it. Data that marshal cannot hold (dates,
say) is simply not kept, and a cache that cannot be written is no error."""
from __future__ import annotations

import hashlib
import marshal
import os
from functools import lru_cache
from pathlib import Path

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def cache_folder(name: str) -> Path | None:
    """~/.cache/triplea-gen/NAME (or under $XDG_CACHE_HOME), private to the user; None if it cannot be made."""
    return _cache_folder(name, os.environ.get("XDG_CACHE_HOME") or "", os.environ.get("HOME") or "")


@lru_cache(maxsize=64)
def _cache_folder(name: str, cache_home: str, home: str) -> Path | None:
    # Made once per process and place: a build asks for it once per data file it reads.
    folder = Path(cache_home or Path(home or Path.home()) / ".cache") / "triplea-gen" / name
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    return folder


def load_yaml_text(text: str):
    """yaml.safe_load(text), from the cache when this exact text was parsed before."""
    folder = cache_folder("yaml")
    path = folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:40]}.marshal" if folder else None
    if path is not None:
        try:
            return marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            pass
    data = yaml.load(text, Loader=_LOADER)
    if path is not None:
        try:
            blob = marshal.dumps(data)
            temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            temporary.write_bytes(blob)
            os.replace(temporary, path)
        except (OSError, ValueError):
            pass
    return data
