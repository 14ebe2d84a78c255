"""Write: all-or-nothing output. Every file is first written into a staging
folder next to the target; only when all of them are written are they moved
into place, so a failed build never leaves a half-written map folder."""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from .diagnostics import Diagnostic, DiagnosticError, Position

_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.\- ]+")


def safe_name(name: str, fallback: str = "game") -> str:
    """A file or folder name from user text: no separators, no '..', nothing hidden."""
    cleaned = _SAFE_NAME.sub("_", name).strip(" .")
    cleaned = re.sub(r"\.{2,}", ".", cleaned).replace(" ", "_")
    return cleaned[:100] or fallback


def check_relative(relpath: str, outdir: Path) -> PurePosixPath:
    path = PurePosixPath(relpath)
    if path.is_absolute() or ".." in path.parts or not path.parts or "\\" in relpath or re.match(r"[A-Za-z]:", relpath):
        raise DiagnosticError([Diagnostic("TG040", f"output path '{relpath}' would escape the output folder",
                                          Position(str(outdir)), "names used in paths may not contain '..' or '/'")])
    return path


def write_outputs(outdir: str | os.PathLike, files: dict[str, bytes]) -> list[Path]:
    """Write every file under outdir, all or nothing; returns the paths written."""
    outdir = Path(outdir)
    relpaths = {rel: check_relative(rel, outdir) for rel in files}
    outdir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".triplea-gen-staging-", dir=outdir))
    written = []
    try:
        for rel, content in files.items():
            staged = staging.joinpath(*relpaths[rel].parts)
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_bytes(content)
        for rel in files:
            target = outdir.joinpath(*relpaths[rel].parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging.joinpath(*relpaths[rel].parts), target)
            written.append(target)
    except OSError as err:
        raise DiagnosticError([Diagnostic("TG041", f"cannot write output: {err.strerror} ({err.filename})",
                                          Position(str(outdir)), "check the folder's permissions and free space")],
                              ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written


def write_file_atomically(path: str | os.PathLike, content: bytes) -> Path:
    """One file, replaced in a single step (a temporary file next to it, then a rename)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temp, path)
    except OSError as err:
        raise DiagnosticError([Diagnostic("TG041", f"cannot write output: {err.strerror}", Position(str(path)),
                                          "check the folder's permissions and free space")]) from None
    return path
