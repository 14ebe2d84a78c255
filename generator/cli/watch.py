"""`watch`: rebuild and revalidate whenever the spec or anything it uses changes.

Polls modification times (no platform file-watching service needed): the spec,
other YAML next to it, its base game when that is a local file, and the macro
templates (shipped and the spec's own)."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from generator.core.diagnostics import DiagnosticError, display_path, printable
from generator.rules.macros import RULES_DIR


def watched_files(spec: Path, base: Path | None) -> list[Path]:
    folders = [spec.parent, RULES_DIR, spec.parent / "macros"]
    files = {spec.resolve()}
    for folder in folders:
        if folder.is_dir():
            files.update(p.resolve() for p in folder.iterdir() if p.suffix in (".yaml", ".yml", ".j2"))
    if base is not None:
        files.add(base.resolve())
    return sorted(files)


def _stamp(files: list[Path]) -> dict[str, tuple[int | None, int | None]]:
    stamps: dict[str, tuple[int | None, int | None]] = {}  # path -> (mtime ns, size); None, None: unreadable
    for path in files:
        try:
            stat = path.stat()
            stamps[str(path)] = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            stamps[str(path)] = (None, None)
    return stamps


def _changed(before: dict[str, tuple], now: dict[str, tuple]) -> bool:
    """True when a file watched before was edited or removed. A file that only now joins the watch
    (the base game, learnt from the first build) is adopted, not treated as an edit."""
    return any(path not in now or now[path] != stamp for path, stamp in before.items())


def _build_once(spec: Path, outdir: str, base: Path | None) -> Path | None:
    """One build; prints what it wrote or every diagnostic. Returns the base game path, if known."""
    from generator.builder.outputs import build_spec

    started = time.perf_counter()
    try:
        # only the files whose bytes change are written: an editor or engine watching them sees no touch
        compiled, written = build_spec(str(spec), outdir, only_changed=True)
        base = compiled.spec.base_path
        games = [display_path(p) for p in written if p.suffix == ".xml"]
        status = f"built {', '.join(games)}" if games else "built (the game is unchanged)"
        if written:
            status += f"; {len(written)} file(s) written"
    except DiagnosticError as err:
        for diagnostic in err.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        status = f"failed with {len(err.diagnostics)} problem(s)"
    except Exception as err:  # a bug must not end the session; output is kept
        print(f"triplea-gen: internal error: {type(err).__name__}: {printable(str(err))}", file=sys.stderr)
        status = "failed with an internal error (a bug in triplea-gen; please report it)"
    print(f"[watch] {status} in {(time.perf_counter() - started) * 1000:.0f} ms; watching for changes",
          flush=True)
    return base


def watch(spec_path: str, outdir: str, interval: float = 0.25, max_builds: int | None = None) -> int:
    from generator.speclang.basecache import keep_in_memory, prepare_spare

    keep_in_memory()
    spec = Path(spec_path)
    print(f"[watch] {display_path(spec)} -> {outdir} (Ctrl-C stops)", flush=True)
    builds = 0
    # Stamps are taken before each build, so a save that lands while a build runs starts another one.
    stamp = _stamp(watched_files(spec, None))
    base = _build_once(spec, outdir, None)
    builds += 1
    prepare_spare()  # while the modder edits: the next build's copy of the base game
    try:
        while max_builds is None or builds < max_builds:
            time.sleep(interval)
            current = _stamp(watched_files(spec, base))
            if _changed(stamp, current):
                stamp = current
                base = _build_once(spec, outdir, base)
                builds += 1
                prepare_spare()
            else:
                stamp = {**current, **stamp}
    except KeyboardInterrupt:
        print("[watch] stopped")
    return 0
