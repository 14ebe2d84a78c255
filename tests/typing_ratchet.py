"""The mypy ratchet: per-file error counts of generator/ may only go down.

    python3 tests/typing_ratchet.py            # show the counts now against .ci/mypy-baseline.json
    python3 tests/typing_ratchet.py --update   # write the counts now as the baseline (after fixing some)

mypy's settings are pyproject.toml's [tool.mypy]. tests/core/test_typing.py fails when a file has more
errors than the baseline allows, or a file the baseline does not list has any."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / ".ci" / "mypy-baseline.json"
_ERROR = re.compile(r"^(?P<file>[^:\n]+\.py):\d+: error: .*\[(?P<code>[a-z-]+)\]$", re.M)


def run_mypy() -> str:
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=REPO,
                          capture_output=True, text=True)
    if done.returncode not in (0, 1) or "error: " not in done.stdout and done.returncode:
        raise RuntimeError(f"mypy did not run: {done.stderr or done.stdout}")
    return done.stdout


def counts(output: str) -> dict[str, int]:
    """file -> number of errors in mypy's output."""
    return dict(sorted(Counter(match.group("file") for match in _ERROR.finditer(output)).items()))


def by_code(output: str) -> Counter:
    return Counter(match.group("code") for match in _ERROR.finditer(output))


def rises(baseline: dict[str, int], now: dict[str, int]) -> list[str]:
    return [f"{file}: {baseline.get(file, 0)} -> {count} mypy errors" for file, count in now.items()
            if count > baseline.get(file, 0)]


def main(argv: list[str]) -> int:
    output = run_mypy()
    now = counts(output)
    if argv == ["--update"]:
        BASELINE.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        print(f"{sum(now.values())} errors in {len(now)} files written to {BASELINE.relative_to(REPO)}")
        return 0
    baseline = json.loads(BASELINE.read_text(encoding="utf-8"))
    print(f"{sum(now.values())} errors now, {sum(baseline.values())} in the baseline; by code: "
          + ", ".join(f"{code} {n}" for code, n in by_code(output).most_common()))
    problems = rises(baseline, now)
    print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
