"""Engine processes and their scratch folders live no longer than the triplea-gen run that made them.

Every engine command (a JVM, or xvfb-run with its X server and JVM) runs in a process group of
its own, started through start_group, which keeps it in a registry:

- SIGINT, SIGTERM or SIGHUP to triplea-gen stops every registered group at once (politely, then
  SIGKILL after a short grace), starts no new one, and unwinds as an interruption (exit 130, or
  128 + the signal's number).
- Killed outright (SIGKILL), triplea-gen cannot act; its JVMs notice by themselves: their stdin
  is a pipe whose other end only triplea-gen holds, and the harness halts the JVM at its end of
  file (Harness.java, -Dtriplea-gen.parent=stdin). xvfb-run then stops its X server as the JVM ends.
- Scratch folders are named triplea-gen-KIND-PID-*, and every JVM carries -Dtriplea-gen.owner=PID
  (its X server names the scratch folder in its -auth): the next run removes the folders, and
  stops the processes, of owners that are gone (sweep_stale)."""
from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

OWNER_PROPERTY = "triplea-gen.owner"
PARENT_PROPERTY = "triplea-gen.parent"
SCRATCH_PREFIX = "triplea-gen-"
STOP_GRACE_SECONDS = 2.0
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
# triplea-gen-KIND-PID-random: KIND is a word, PID the owner's process id.
_SCRATCH_NAME = re.compile(r"^triplea-gen-[a-z]+-(\d+)-")
_OWNER_MARK = re.compile(rb"-D" + re.escape(OWNER_PROPERTY.encode()) + rb"=(\d+)\x00")
_FOLDER_MARK = re.compile(rb"/triplea-gen-[a-z]+-(\d+)-")

_lock = threading.RLock()  # reentrant: the signal handler runs in the main thread, which may hold it
_groups: dict[int, subprocess.Popen] = {}
# pid -> the writing end of the pipe that is a started child's stdin (closed at end_group: the child
# then sees its parent gone); beside the process, not an attribute set on it
_parent_pipes: dict[int, int] = {}
_folders: set[str] = set()
_stopping = threading.Event()
_handlers_installed = False


class Interrupted(KeyboardInterrupt):
    """triplea-gen was told to stop (SIGINT, SIGTERM, SIGHUP) while engines ran; every one is stopped.
    A KeyboardInterrupt, so that every place that unwinds on Ctrl-C unwinds on it the same way."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


PARENT_OPTION = f"-D{PARENT_PROPERTY}=stdin"


def owner_options() -> tuple[str, ...]:
    """The options that mark a JVM as ours (whose run started it) and make it watch its parent
    (PARENT_OPTION: only for a JVM started through start_group, which gives it the pipe)."""
    return (f"-D{OWNER_PROPERTY}={os.getpid()}", PARENT_OPTION)


def stopping() -> bool:
    return _stopping.is_set()


def install_signal_handlers() -> None:
    """From the main thread (elsewhere Python refuses): SIGINT, SIGTERM and SIGHUP stop every engine."""
    global _handlers_installed
    if _handlers_installed or threading.current_thread() is not threading.main_thread():
        return
    for signum in STOPPING_SIGNALS:
        if signum != signal.SIGINT and signal.getsignal(signum) not in (signal.SIG_DFL, None):
            continue  # somebody else's handler (a test runner, an embedding program) stays
        signal.signal(signum, _on_signal)
    _handlers_installed = True


def _on_signal(signum, frame) -> None:
    _stopping.set()
    stop_all()
    raise Interrupted(signum)


def start_group(command: list[str], **popen) -> subprocess.Popen:
    """Popen(command) in a new process group, registered until end_group; its stdin is a pipe
    triplea-gen keeps open (and never writes), whose end tells an engine that its parent is gone."""
    if _stopping.is_set():
        raise Interrupted()
    sweep_stale()
    install_signal_handlers()
    reader, writer = os.pipe()  # not inherited: only this child gets the reader, as its stdin
    try:
        process = subprocess.Popen(command, stdin=reader, start_new_session=True, **popen)
    except BaseException:
        os.close(writer)
        raise
    finally:
        os.close(reader)
    with _lock:
        _parent_pipes[process.pid] = writer
        _groups[process.pid] = process
    if _stopping.is_set():  # a signal came between the check above and the registration
        stop_group(process.pid)
    return process


def register_group(process: subprocess.Popen) -> subprocess.Popen:
    """A process already started in a new process group (start_new_session) that keeps its own
    stdin, such as a warm JVM reading its games from it: stopped with the others on a signal, and
    forgotten by end_group. Its stdin ending is its parent watch (the harness's serve mode ends
    then)."""
    with _lock:
        _groups[process.pid] = process
    if _stopping.is_set():
        stop_group(process.pid)
    return process


def discard_scratch_folder(folder: str) -> None:
    """Removes a folder of scratch_folder_for_process before the process ends (a warm JVM replaced)."""
    shutil.rmtree(folder, ignore_errors=True)  # safe-write: our own folder (rmtree follows no link)
    with _lock:
        _folders.discard(folder)


def end_group(process: subprocess.Popen, wait: float = 5.0) -> None:
    """After the command ended: stops what is left of its group (xvfb-run leaves its X server
    shutting down as it exits), waits a little for it to be gone, and forgets it."""
    if process.poll() is None:
        process.kill()
        process.wait()
    stop_group(process.pid, grace=wait)
    with _lock:
        _groups.pop(process.pid, None)
        writer = _parent_pipes.pop(process.pid, None)
    if writer is not None:
        os.close(writer)


def stop_group(group: int, grace: float = STOP_GRACE_SECONDS) -> None:
    """SIGTERM to the group (an X server removes its lock file), SIGKILL to what is left after grace."""
    try:
        os.killpg(group, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    if not _wait_gone(group, grace):
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        _wait_gone(group, grace)


def _wait_gone(group: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        # The group leader is our child: reap it, or it stays a zombie that keeps the group alive.
        with _lock:
            leader = _groups.get(group)
        if leader is not None:
            leader.poll()
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def stop_all() -> None:
    """Stops every registered group at once: SIGTERM to all, then SIGKILL to what is left."""
    with _lock:
        groups = list(_groups)
    for group in groups:
        try:
            os.killpg(group, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for group in groups:
        if not _wait_gone(group, max(0.0, deadline - time.monotonic())):
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    for group in groups:
        _wait_gone(group, 1.0)


@contextmanager
def scratch_folder(kind: str):
    """A private temporary folder triplea-gen-KIND-PID-*, removed on leaving (and at exit, and by
    the next run's sweep_stale when this process was killed before either)."""
    sweep_stale()
    folder = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{kind}-{os.getpid()}-")  # safe-write: made exclusively, mode 700
    with _lock:
        _folders.add(folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # safe-write: our own folder (rmtree follows no link)
        with _lock:
            _folders.discard(folder)


def scratch_folder_for_process(kind: str) -> str:
    """A scratch folder that lives as long as this process (removed at exit)."""
    folder = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{kind}-{os.getpid()}-")  # safe-write: made exclusively, mode 700
    with _lock:
        _folders.add(folder)
    return folder


@atexit.register
def _at_exit() -> None:
    # The last safety net, should a path have left a group or folder behind.
    stop_all()
    with _lock:
        folders = list(_folders)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)  # safe-write: our own folders (rmtree follows no link)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # somebody's process: not a dead owner
    return True


_swept = False


def sweep_stale(temporary: str | None = None) -> list[str]:
    """Once per process (or whenever `temporary` is given): stops the processes of ours whose owner
    (the triplea-gen run that started them) is gone, and removes those runs' scratch folders.
    Only this user's processes and folders are touched. Returns what it removed, for tests."""
    global _swept
    if _swept and temporary is None:
        return []
    _swept = True
    removed = [f"process {pid}" for pid in _stop_orphans()]
    base = Path(temporary or tempfile.gettempdir())
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    for entry in entries:
        found = _SCRATCH_NAME.match(entry.name)
        if not found or _alive(int(found.group(1))):
            continue
        try:
            if entry.is_symlink() or not entry.is_dir() or entry.stat().st_uid != os.getuid():
                continue
        except OSError:
            continue
        # safe-write: a dead run's scratch folder of this user, checked above not to be a link
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(str(entry))
    return removed


def _stop_orphans() -> list[int]:
    """Our JVMs and X servers whose owner is gone (found by their marks in /proc), stopped."""
    proc = Path("/proc")
    if not proc.is_dir() or not hasattr(os, "getuid"):
        return []
    orphans = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        mark = _OWNER_MARK.search(command) or (_FOLDER_MARK.search(command) if b"Xvfb" in command else None)
        if mark and not _alive(int(mark.group(1))):
            orphans.append(int(entry.name))
    for pid in orphans:
        try:
            os.kill(pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    for pid in orphans:
        while _alive(pid) and time.monotonic() < deadline and not _zombie(pid):
            time.sleep(0.05)
        if _alive(pid) and not _zombie(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    return orphans


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True
