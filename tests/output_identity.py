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
and a change of it is reviewed like code: `git diff` shows which outputs moved.
tests/build/test_output_identity.py runs `check` case by case."""
from __future__ import annotations

import argparse
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


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    env["TRIPLEA_MAPS"] = str(SHARED / "maps")
    env["TRIPLEA_GEN_NO_SERVER"] = "1"
    env["NO_COLOR"] = "1"
    return env


def _run(args: list[str], work: Path) -> tuple[int, bytes]:
    done = subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO, env=_environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return done.returncode, _placeless(done.stdout, work)


def _placeless(data: bytes, work: Path) -> bytes:
    for place, name in ((work, b"<WORK>"), (SHARED, b"<SHARED>"), (REPO, b"<REPO>")):
        data = data.replace(str(place).encode(), name)
    return data


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tree(folder: Path, work: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): _digest(_placeless(p.read_bytes(), work))
            for p in sorted(folder.rglob("*")) if p.is_file()}


def outputs(case: str) -> dict[str, str]:
    """What the case produces now: output name → SHA-256."""
    kind, name = case.split(":", 1)
    with tempfile.TemporaryDirectory(prefix="identity-") as temp:
        work = Path(temp)
        if kind == "spec":
            return _spec_outputs(REPO / "rules_yaml" / name, work)
        return _corpus_outputs(SHARED / "corpus" / name, work)


def _spec_outputs(spec: Path, work: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    status, text = _run(["build", str(spec), "-o", str(work / "out")], work)
    found["build status"] = str(status)
    found["build text"] = _digest(text)
    found.update({f"build/{k}": v for k, v in _tree(work / "out", work).items()} if (work / "out").is_dir() else {})
    status, text = _run(["report", str(spec)], work)
    found["report"] = f"{status} {_digest(text)}"
    return found


def _corpus_outputs(xml: Path, work: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    imported = work / "game.yaml"
    status, text = _run(["import", str(xml), "-o", str(imported)], work)
    found["import"] = f"{status} {_digest(text)}"
    if imported.is_file():
        found["import/game.yaml"] = _digest(_placeless(imported.read_bytes(), work))
    for engine in ("1.9", "current"):
        status, text = _run(["validate", "--engine", engine, str(xml)], work)
        found[f"validate {engine}"] = f"{status} {_digest(text)}"
    if imported.is_file():
        status, text = _run(["build", str(imported), "-o", str(work / "out"), "--skip-validation"], work)
        found["rebuild"] = f"{status} {_digest(text)}"
        if (work / "out").is_dir():
            found.update({f"rebuild/{k}": v for k, v in _tree(work / "out", work).items()})
    return found


def differences(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    return [f"{key}: {recorded.get(key, 'absent')} -> {now.get(key, 'absent')}"
            for key in sorted(set(recorded) | set(now)) if recorded.get(key) != now.get(key)]


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
            print(f"{case}: differs\n  " + "\n  ".join(changed))
    print(f"{len(results) - failed} of {len(results)} cases identical")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
