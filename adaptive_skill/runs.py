"""A run directory: everything one `evolve` run produces, written step by step so that a crash
loses at most the unit in flight and `--resume` continues exactly.

    runs/<run-id>/
      config.yaml          the resolved config, secrets redacted
      events.jsonl         one event per line, append-only (schema version EVENTS_VERSION)
      checkpoint.json      where the run stands; rewritten (write-then-rename) after every unit
      workspace/           the evolving workspace, its own git repository (tags evo-N)
      cycles/<n>/          batch, results (labels), trajectories, verdicts, evolver, gating, decision
      baselines/<hash>/    holdout results of an accepted workspace, reused while it is unchanged
      judge-cache/         verdicts by content hash
      STOP                 create this file to stop after the current unit
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from adaptive_skill.errors import UserError
from adaptive_skill.files import read_json, write_json_atomic

EVENTS_VERSION = 1
CHECKPOINT_VERSION = 1


class RunDir:
    def __init__(self, root: Path):
        self.root = root
        self._lock = threading.Lock()

    # -- layout ------------------------------------------------------------------------------

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    @property
    def events_path(self) -> Path:
        return self.root / "events.jsonl"

    @property
    def checkpoint_path(self) -> Path:
        return self.root / "checkpoint.json"

    @property
    def judge_cache(self) -> Path:
        return self.root / "judge-cache"

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
        (root / "config.yaml").write_text(config_yaml, encoding="utf-8")
        return cls(root)

    @classmethod
    def open(cls, root: Path) -> RunDir:
        run = cls(Path(root))
        if not run.root.is_dir():
            raise UserError(f"{root}: no such run directory")
        if not run.checkpoint_path.is_file():
            raise UserError(f"{root}: not a resumable run (no checkpoint.json)")
        return run

    # -- events and checkpoints --------------------------------------------------------------

    def event(self, kind: str, **data: Any) -> dict[str, Any]:
        record = {"v": EVENTS_VERSION, "ts": round(time.time(), 3), "event": kind, **data}
        line = json.dumps(record, sort_keys=True, default=str)
        with self._lock, self.events_path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        return record

    def events(self) -> list[dict[str, Any]]:
        """Every complete event line (a torn last line from a crash is skipped)."""
        if not self.events_path.exists():
            return []
        found = []
        for line in self.events_path.read_text(encoding="utf-8").splitlines():
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return found

    def load_checkpoint(self) -> dict[str, Any]:
        data = read_json(self.checkpoint_path)
        if not isinstance(data, dict) or data.get("version") != CHECKPOINT_VERSION:
            raise UserError(f"{self.checkpoint_path}: unreadable or from another version")
        return data

    def save_checkpoint(self, data: dict[str, Any]) -> None:
        write_json_atomic(self.checkpoint_path, {**data, "version": CHECKPOINT_VERSION, "saved_at": time.time()})

    def stop_requested(self) -> bool:
        return (self.root / "STOP").exists()
