"""Warm JVMs for many short games (the scenarios of `test`): each worker is one JVM running the
harness's serve mode, which plays game after game without loading and compiling the engine's
classes again; that costs more than most scenario games (2-5 s, far more for TripleA 2.x's one
big jar on Java 25). Every game is still vetted and staged like any other, the JVM is the same
guarded command (harness.java_command), and a worker whose game ran out of time or crashed is
stopped and replaced by a fresh one for the next game."""
from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import time
from typing import IO
from pathlib import Path

from generator.core.diagnostics import display_path
from generator.engine import harness, lifecycle
from generator.engine.records import Record, read_output



class WarmHarness:
    """One serving JVM (started on first use) with its own scratch user.home."""

    def __init__(self, engine):
        self.engine = engine
        self.process: subprocess.Popen | None = None
        self.home: str | None = None
        self._buffer = b""

    def _start(self) -> None:
        if lifecycle.stopping():
            raise lifecycle.Interrupted()
        lifecycle.install_signal_handlers()
        # Named for this run (swept by the next one should this one be killed outright).
        self.home = lifecycle.scratch_folder_for_process("warm")  # safe-write: made exclusively, private
        # Serve mode reads its games from stdin and ends at its end: that is its parent watch, so it
        # gets no second one (-Dtriplea-gen.parent=stdin would read the same pipe).
        command = harness.java_command(harness.harness_classes(self.engine), self.engine.harness_class, ["serve"],
                                       self.home, watch_parent=False, engine=self.engine)
        # The engine's console goes to a file: a pipe nobody reads would fill and stop the JVM.
        with open(Path(self.home) / "console.log", "xb") as console:  # safe-write: in our private folder
            self.process = lifecycle.register_group(subprocess.Popen(
                command, cwd=self.engine.working_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=console,
                start_new_session=True))
        self._buffer = b""

    def _pipes(self) -> tuple[subprocess.Popen, IO[bytes], IO[bytes]]:
        """The running JVM and its stdin and stdout (_start opens both: never None while it runs)."""
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        return process, process.stdin, process.stdout

    def play(self, path: Path, options: list[str], timeout: float) -> Record:
        """The harness's play report for one game, as harness.play_scenario_game gives it."""
        path = Path(path)
        vetted = harness.vet_for_engine(path)
        arguments = [*options, "--timeout", str(timeout)]
        if any("\t" in part or "\n" in part for part in arguments):
            raise harness._error("TG304", "a play argument holds a tab or line break", display_path(path))
        if self.process is None or self.process.poll() is not None:
            self.close()
            self._start()
        process, stdin, _ = self._pipes()
        staged = harness.stage_for_engine(path, self.home, vetted)
        try:
            stdin.write(("\t".join([str(staged), *arguments]) + "\n").encode("utf-8"))
            stdin.flush()
            line = self._read_line(timeout + harness._JVM_GRACE_SECONDS)
        except BrokenPipeError:
            line = None
        finally:
            shutil.rmtree(staged.parent, ignore_errors=True)  # safe-write: the staged copy, in our private home
        if line is None:
            died = process.poll() is not None
            console = self._console_tail()
            self.close()
            if died:
                raise harness._error("TG303", "the engine harness stopped without a report: " + console,
                                     "triplea-gen", "this is a bug in triplea-gen or a broken Java installation")
            raise harness._error("TG312", f"the engine did not finish within {timeout:.0f} s and was stopped",
                                 "triplea-gen", "raise --timeout, or play fewer rounds")
        report = read_output("play", json.loads(line), self.engine.name)  # TG093 when it is no play record
        if report.get("stopped_by") == "time limit":
            self.close()  # the harness halts its JVM after a game stopped by its watchdog
        if not report["ok"]:
            raise harness._error("TG310", f"the engine refused the game: {report['error']}", display_path(path),
                                 "'triplea-gen engine check' shows the same verdict; fix what the engine names")
        return report

    def _read_line(self, timeout: float) -> str | None:
        """One line of the JVM's stdout, or None at the time limit or when it ends first."""
        import selectors

        deadline = time.monotonic() + timeout
        descriptor = self._pipes()[2].fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(descriptor, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(descriptor, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def _console_tail(self) -> str:
        if self.home is None:
            return ""
        try:
            lines = (Path(self.home) / "console.log").read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return ""
        return " | ".join(lines[-5:])

    def close(self) -> None:
        """Stops the JVM (its whole process group) and removes its home."""
        if self.process is not None:
            process, stdin, stdout = self._pipes()
            try:
                stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=5)  # the harness halts at the end of its input
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
            stdout.close()
            lifecycle.end_group(process, wait=1.0)
            self.process = None
        if self.home is not None:
            lifecycle.discard_scratch_folder(self.home)
            self.home = None


class WarmPool:
    """Up to `size` warm JVMs shared by the threads that play games; a context manager."""

    def __init__(self, engine, size: int):
        self._engine = engine  # resolved on the first game: a missing engine is that game's error
        self._idle: queue.Queue[WarmHarness] = queue.Queue()
        self._all = [WarmHarness(None) for _ in range(max(1, size))]
        for worker in self._all:
            self._idle.put(worker)

    def play(self, path: Path, options: list[str], timeout: float) -> dict:
        worker = self._idle.get()
        try:
            if worker.engine is None:
                worker.engine = harness.resolve_engine(self._engine)
            return worker.play(path, options, timeout)
        finally:
            self._idle.put(worker)

    def __enter__(self) -> WarmPool:
        return self

    def __exit__(self, *_) -> None:
        for worker in self._all:
            worker.close()
