"""Proves that a change of code changed no output: every example spec, every corpus XML.

    python3 tests/output_identity.py record [--jobs 2]   # write tests/golden/output_identity.json
    python3 tests/output_identity.py check  [--jobs 2]   # compare with it; exit 1 on any difference

What is compared, through the command line only (so the same script runs on the code
before and after a restructure):
- each spec in rules_yaml/: every file `build` writes, and the text of `report`;
- each corpus XML (../shared/corpus/xml and xml2): the YAML `import` writes, the text and
  exit status of `validate` (for 1.9 and for the current engine), and the XML `build`
  writes from the imported YAML (the round trip).
Paths of this machine are replaced by placeholders before hashing. The manifest holds a
SHA-256 per output; it is recorded on purpose (`record`), never in the run that checks it,
and a change of it is reviewed like code: `git diff` shows which outputs moved. A case that
differs is shown as a unified diff of each changed output's text: the code of the commit that
last recorded the manifest is run again in a scratch copy to get the recorded text back.
tests/builder/test_output_identity.py runs `check` case by case."""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
MANIFEST = REPO / "tests" / "golden" / "output_identity.json"
CORPUS_FOLDERS = ("xml", "xml2")


def cases() -> list[str]:
    """Case names: `spec:<file>` for rules_yaml, `corpus:<folder>/<file>` for the corpus."""
    names = [f"spec:{p.name}" for p in sorted((REPO / "rules_yaml").glob("*.yaml"))]
    for folder in CORPUS_FOLDERS:
        names += [f"corpus:{folder}/{p.name}" for p in sorted((SHARED / "corpus" / folder).glob("*.xml"))]
    return names


def _environment(repo: Path = REPO) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo)
    env["TRIPLEA_MAPS"] = str(SHARED / "maps")
    env["TRIPLEA_GEN_NO_SERVER"] = "1"
    env["NO_COLOR"] = "1"
    return env


def _run(args: list[str], work: Path, repo: Path) -> tuple[int, bytes]:
    done = subprocess.run([sys.executable, "-m", "generator", *args], cwd=repo, env=_environment(repo),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return done.returncode, _placeless(done.stdout, work, repo)


def _placeless(data: bytes, work: Path, repo: Path = REPO) -> bytes:
    for place, name in ((work, b"<WORK>"), (SHARED, b"<SHARED>"), (repo, b"<REPO>")):
        data = data.replace(str(place).encode(), name)
    return data


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tree(folder: Path, work: Path, repo: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): _placeless(p.read_bytes(), work, repo)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def outputs(case: str) -> dict[str, str]:
    """What the case produces now: output name → SHA-256 (with the exit status where there is one)."""
    return {key: (f"{status} {_digest(data)}" if status is not None else _digest(data))
            if key != "build status" else data.decode()
            for key, (status, data) in texts(case).items()}


def texts(case: str, repo: Path = REPO) -> dict[str, tuple[int | None, bytes]]:
    """What the case produces with the code in repo: output name → (exit status or None, bytes)."""
    kind, name = case.split(":", 1)
    with tempfile.TemporaryDirectory(prefix="identity-") as temp:
        work = Path(temp)
        if kind == "spec":
            return _spec_outputs(repo / "rules_yaml" / name, work, repo)
        return _corpus_outputs(SHARED / "corpus" / name, work, repo)


def _spec_outputs(spec: Path, work: Path, repo: Path) -> dict[str, tuple[int | None, bytes]]:
    found: dict[str, tuple[int | None, bytes]] = {}
    status, text = _run(["build", str(spec), "-o", str(work / "out")], work, repo)
    found["build status"] = (None, str(status).encode())
    found["build text"] = (None, text)
    if (work / "out").is_dir():
        found.update({f"build/{k}": (None, v) for k, v in _tree(work / "out", work, repo).items()})
    found["report"] = _run(["report", str(spec)], work, repo)
    return found


def _corpus_outputs(xml: Path, work: Path, repo: Path) -> dict[str, tuple[int | None, bytes]]:
    found: dict[str, tuple[int | None, bytes]] = {}
    imported = work / "game.yaml"
    found["import"] = _run(["import", str(xml), "-o", str(imported)], work, repo)
    if imported.is_file():
        found["import/game.yaml"] = (None, _placeless(imported.read_bytes(), work, repo))
    for engine in ("1.9", "current"):
        found[f"validate {engine}"] = _run(["validate", "--engine", engine, str(xml)], work, repo)
    if imported.is_file():
        found["rebuild"] = _run(["build", str(imported), "-o", str(work / "out"), "--skip-validation"], work, repo)
        if (work / "out").is_dir():
            found.update({f"rebuild/{k}": (None, v) for k, v in _tree(work / "out", work, repo).items()})
    return found


def differences(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    return [f"{key}: {recorded.get(key, 'absent')} -> {now.get(key, 'absent')}"
            for key in sorted(set(recorded) | set(now)) if recorded.get(key) != now.get(key)]


MAX_DIFF_LINES = 40  # per output: enough to see what moved, short enough to read in a CI log


def text_difference(key: str, before: tuple[int | None, bytes] | None, after: tuple[int | None, bytes] | None) -> str:
    """What changed in one output, as a unified diff of its text (cut after MAX_DIFF_LINES lines)."""
    if before is None or after is None:
        return f"{key}: {'not made by either' if before is after else 'added' if before is None else 'removed'}"
    lines = []
    if before[0] != after[0]:
        lines.append(f"exit status {before[0]} -> {after[0]}")
    try:
        old, new = before[1].decode("utf-8"), after[1].decode("utf-8")
    except UnicodeDecodeError:
        lines.append(f"binary: {len(before[1])} -> {len(after[1])} bytes")
    else:
        diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"recorded/{key}", f"now/{key}",
                                         lineterm="", n=2))
        if len(diff) > MAX_DIFF_LINES:
            diff = diff[:MAX_DIFF_LINES] + [f"... {len(diff) - MAX_DIFF_LINES} more diff lines"]
        lines += diff or ([] if lines else ["the same text (a placeholder or the environment differs)"])
    return f"{key}:\n    " + "\n    ".join(lines)


def recorded_commit() -> str | None:
    """The commit that last recorded the manifest: its code made the recorded outputs."""
    done = subprocess.run(["git", "log", "-1", "--format=%H", "--", str(MANIFEST.relative_to(REPO))], cwd=REPO,
                          capture_output=True, text=True)
    return done.stdout.strip() or None


def explained(case: str, changed: list[str]) -> str:
    """The changed outputs of a case as diffs of their text: the recorded commit's code is run again
    in a scratch copy (the manifest holds only hashes), or only the hashes when git cannot."""
    commit = recorded_commit()
    if commit is None:
        return "\n".join(changed)
    keys = [line.split(": ", 1)[0] for line in changed]
    with tempfile.TemporaryDirectory(prefix="identity-recorded-") as temp:
        old_repo = Path(temp)
        archive = subprocess.run(["git", "archive", commit, "generator", "templates", "rules_yaml"], cwd=REPO,
                                 capture_output=True)
        unpacked = archive.returncode == 0 and subprocess.run(["tar", "-x", "-C", str(old_repo)],
                                                              input=archive.stdout).returncode == 0
        if not unpacked:
            return "\n".join(changed)
        before, after = texts(case, old_repo), texts(case)
    return "\n".join(text_difference(key, before.get(key), after.get(key)) for key in keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="only cases whose name contains this")
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"{SHARED} is missing: the corpus and maps are needed", file=sys.stderr)
        return 2
    chosen = [c for c in cases() if not args.only or args.only in c]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip(chosen, pool.map(outputs, chosen)))
    if args.action == "record":
        MANIFEST.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {len(results)} cases in {MANIFEST.relative_to(REPO)}")
        return 0
    recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))
    failed = 0
    for case, now in results.items():
        if case not in recorded:
            print(f"{case}: not in the manifest")
            failed += 1
            continue
        changed = differences(recorded[case], now)
        if changed:
            failed += 1
            print(f"{case}: differs\n  " + explained(case, changed).replace("\n", "\n  "))
    print(f"{len(results) - failed} of {len(results)} cases identical")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
