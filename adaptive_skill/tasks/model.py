"""A terminal task as loaded from disk (Harbor layout or the older Terminal-Bench layout)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class Task:
    id: str  # the task directory's name
    path: Path  # the task directory
    layout: Literal["harbor", "terminal-bench"]
    instruction: str
    category: str = "uncategorized"
    difficulty: str = "unknown"
    tags: tuple[str, ...] = ()
    agent_timeout_sec: float = 600.0
    verifier_timeout_sec: float = 180.0
    build_timeout_sec: float = 600.0
    cpus: float = 1.0
    memory_mb: int = 2048
    allow_internet: bool = False
    environment_dir: Path = field(default=Path("."))  # the docker build context
    dockerfile: Path = field(default=Path("Dockerfile"))  # absolute path of the Dockerfile
    tests_dir: Path = field(default=Path("tests"))  # copied to /tests before verification
    test_script: str = "test.sh"  # relative to tests_dir (harbor) or the task dir (terminal-bench)
    solution_script: Path | None = None  # solution/solve.sh or solution.sh
