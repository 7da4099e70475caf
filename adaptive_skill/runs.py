"""A run directory: everything one `evolve` run produces, written step by step so that a crash
loses at most the unit in flight and `--resume` continues exactly.

    runs/<run-id>/
      config.yaml          the resolved config, secrets redacted
      events.jsonl         one event per line, append-only (schema version EVENTS_VERSION)
      costs.jsonl          the cost journal: one line per model call, written as it is paid (llm/accounting.py)
      checkpoint.json      where the run stands; rewritten (write-then-rename) after every unit
      workspace/           the evolving workspace, its own git repository (tags evo-N)
      cycles/<n>/          batch, results (labels), trajectories, verdicts, evolver, gating, decision
      baselines/<hash>/    holdout results of an accepted workspace, reused while it is unchanged
                           (its workspace/ is exported to a temporary name, then renamed: whole or absent)
      judge-cache/         verdicts by content hash
      STOP                 create this file to stop after the current unit
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

from adaptive_skill.errors import UserError
from adaptive_skill.files import (
    append_jsonl,
    read_json,
    read_jsonl,
    repair_jsonl_tail,
    write_json_atomic,
    write_text_atomic,
)

EVENTS_VERSION = 1
CHECKPOINT_VERSION = 1


class _Entry:
    """A fixed file or folder of a run directory (the tree above), read as an attribute of the run:
    `run.events_path` is root/events.jsonl; on the class, the path relative to a run's root."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, run: RunDir | None, owner: type) -> Path:
        return Path(self.name) if run is None else run.root / self.name


class RunDir:
    # -- layout ------------------------------------------------------------------------------

    config_path = _Entry("config.yaml")
    events_path = _Entry("events.jsonl")
    costs_path = _Entry("costs.jsonl")
    checkpoint_path = _Entry("checkpoint.json")
    workspace = _Entry("workspace")
    judge_cache = _Entry("judge-cache")
    stop_path = _Entry("STOP")

    def __init__(self, root: Path):
        self.root = root
        self._lock = threading.Lock()

    def cycle_dir(self, cycle: int) -> Path:
        return self.root / "cycles" / f"{cycle:03d}"

    def baseline_dir(self, workspace_hash: str) -> Path:
        return self.root / "baselines" / workspace_hash[:16]

    # -- creation ----------------------------------------------------------------------------

    @classmethod
    def create(cls, runs_dir: Path, config_yaml: str, run_id: str | None = None) -> RunDir:
        run_id = run_id or f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
        root = runs_dir / run_id
        if root.exists():
            raise UserError(f"{root}: run directory already exists (use --resume {root} to continue it)")
        root.mkdir(parents=True)
        run = cls(root)
        write_text_atomic(run.config_path, config_yaml)
        return run

    @classmethod
    def open(cls, root: Path) -> RunDir:
        run = cls(Path(root))
        if not run.root.is_dir():
            raise UserError(f"{root}: no such run directory")
        if not run.checkpoint_path.is_file():
            raise UserError(f"{root}: not a resumable run (no checkpoint.json)")
        repair_jsonl_tail(run.events_path)  # a line torn by a kill must not sit before the next event
        return run

    def stored_config(self) -> dict[str, Any] | None:
        """config.yaml, the config the run was started with, as a mapping (secrets redacted); None
        where there is none. UserError naming the file where it cannot be read."""
        import yaml

        if not self.config_path.is_file():
            return None
        try:
            stored = yaml.safe_load(self.config_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise UserError(f"{self.config_path}: unreadable ({str(exc).splitlines()[0]})") from None
        if not isinstance(stored, dict):
            raise UserError(f"{self.config_path}: not a mapping of settings")
        return stored

    # -- events and checkpoints --------------------------------------------------------------

    def event(self, kind: str, **data: Any) -> dict[str, Any]:
        record = {"v": EVENTS_VERSION, "ts": round(time.time(), 3), "event": kind, **data}
        with self._lock:
            append_jsonl(self.events_path, record)
        return record

    def events(self) -> list[dict[str, Any]]:
        """Every event. A torn last line (a crash mid-write) is skipped; any other bad line raises
        UserError naming the file and line."""
        return read_jsonl(self.events_path, _event_problem)

    def load_checkpoint(self) -> dict[str, Any]:
        data = read_json(self.checkpoint_path)
        if not isinstance(data, dict) or data.get("version") != CHECKPOINT_VERSION:
            raise UserError(f"{self.checkpoint_path}: unreadable or from another version")
        return data

    def save_checkpoint(self, data: dict[str, Any]) -> None:
        write_json_atomic(self.checkpoint_path, {**data, "version": CHECKPOINT_VERSION, "saved_at": time.time()})

    def stop_requested(self) -> bool:
        return self.stop_path.exists()


def _event_problem(record: dict[str, Any]) -> str | None:
    if not isinstance(record.get("event"), str):
        return "no event name"
    if not isinstance(record.get("ts"), int | float) or isinstance(record.get("ts"), bool):
        return "no timestamp"
    return None
