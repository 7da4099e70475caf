"""Small helpers shared by the newer benchmark scripts: the load average, the machine, JSON output."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def load_average() -> list[float]:
    """1, 5 and 15 minute load averages: figures taken on a busy 2-core machine need them beside."""
    return [round(value, 2) for value in os.getloadavg()]


def machine() -> dict[str, object]:
    try:
        with open("/proc/meminfo") as handle:
            memory_gb = round(int(handle.readline().split()[1]) / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        memory_gb = None
    try:
        docker = subprocess.run(["docker", "version", "--format", "{{.Server.Version}}"], capture_output=True,
                                text=True, timeout=20).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        docker = None
    return {"cores": os.cpu_count(), "memory_gb": memory_gb, "cpu": _cpu_model(), "docker_engine": docker,
            "python": platform.python_version(), "kernel": platform.release(), "executable": sys.executable}


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def write_json(path: str | None, data: object) -> None:
    if path:
        Path(path).write_text(json.dumps(data, indent=2) + "\n")
