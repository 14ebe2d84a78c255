"""Running triplea-gen as a hostile input's victim would: in its own process, with an address-space
limit (so a memory blow-up fails the process, not the machine or the test run) and a time limit."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO

MEMORY_LIMIT = 1536 * 1024 * 1024  # address space: Python with lxml and the game model fits well inside
SECONDS = 20


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_bounded(args: list[str], env: dict | None = None,
                cwd: Path = REPO) -> tuple[subprocess.CompletedProcess, float]:
    """`python -m generator ARGS` under the limits, without a build server; the result and its seconds."""
    env = dict(os.environ if env is None else env, TRIPLEA_GEN_NO_SERVER="1", PYTHONPATH=str(REPO))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "generator", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=SECONDS * 3, preexec_fn=_limit_memory)
    return done, time.monotonic() - started
