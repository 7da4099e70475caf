"""Where and on what a curve's part ran: the code (the project's git commit, whether tracked files
differed from it), the machine (CPUs, their model, memory) and its load while the part ran (the 1-minute load
average, sampled), so that a figure in results.json says what it was measured beside.

On the 2-core machines of the documented runs an embedded model alone keeps the load near 2; a
mean well above the CPU count means something else ran beside the measurement (docs/curve.md)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # adaptive_skill/: the checkout holding it is the code measured
SAMPLE_SEC = 60.0


def code_version(root: Path = PACKAGE.parent) -> dict:
    """{"commit": the HEAD of the git checkout whose top is `root` (None when `root` is not the top
    of one: an installed package, or a venv inside some other repository), "dirty": whether a
    tracked file differs from it (None when unknown)}. Untracked files (run outputs) do not count."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10,
                                  check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != root.resolve():
        return {"commit": None, "dirty": None}
    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def machine() -> dict:
    """{"cpus": usable CPUs, "memory_gb": total memory (None where /proc/meminfo is not readable),
    "cpu": the processor's model name (None where /proc/cpuinfo does not say): two VMs of 2 cores ran
    the same 1.5B 2-3x apart (docs/performance.md), so the cores alone do not say what a figure is."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count()
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = round(int(line.split()[1]) / 1024 / 1024, 1)
                break
    except (OSError, ValueError, IndexError):
        pass
    return {"cpus": cpus, "memory_gb": memory, "cpu": cpu_model()}


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Processor") and value.strip():
                return " ".join(value.split())[:100]
    except OSError:
        pass
    return None


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):  # no load average on this system
        return None


class LoadSampler:
    """A context that samples the 1-minute load average every `interval` seconds in a thread (and
    once on entry and on exit); `summary()`: {"mean", "max", "samples"} of what it read."""

    def __init__(self, interval: float = SAMPLE_SEC):
        self.interval = interval
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _take(self) -> None:
        value = _load()
        if value is not None:
            self.samples.append(value)

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._take()

    def __enter__(self) -> LoadSampler:
        self._take()
        self._thread = threading.Thread(target=self._loop, name="load-sampler", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._take()

    def summary(self) -> dict:
        if not self.samples:
            return {"mean": None, "max": None, "samples": 0}
        return {"mean": round(sum(self.samples) / len(self.samples), 2), "max": round(max(self.samples), 2),
                "samples": len(self.samples)}


def session(start: float, end: float, code: dict, host: dict, load: dict) -> dict:
    """One session of a part, as results.json keeps it (times in UTC, ISO 8601)."""

    def utc(t: float) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))

    return {"start": utc(start), "end": utc(end), "code": code, "machine": host, "load": load}
