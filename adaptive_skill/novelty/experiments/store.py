"""Where each finished (problem, condition, repeat) lives: DIR/runs/<problem>/<condition>/repeat-<n>.json.

A record is written atomically once its run is complete, so a crash or Ctrl-C loses at most the
run in progress and a re-run skips every record already on disk.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json, write_json_atomic

RECORD_VERSION = 1


@dataclass(frozen=True)
class Unit:
    problem: str
    condition: str
    repeat: int

    @property
    def label(self) -> str:
        return f"{self.problem}/{self.condition}/{self.repeat}"


class RecordStore:
    def __init__(self, root: Path):
        self.root = root

    def path(self, unit: Unit) -> Path:
        return self.root / "runs" / unit.problem / unit.condition / f"repeat-{unit.repeat}.json"

    def has(self, unit: Unit) -> bool:
        return self.load(unit) is not None

    def load(self, unit: Unit) -> dict[str, Any] | None:
        data = read_json(self.path(unit))
        return data if isinstance(data, dict) and data.get("version") == RECORD_VERSION else None

    def save(self, unit: Unit, record: dict[str, Any]) -> None:
        write_json_atomic(self.path(unit), {"version": RECORD_VERSION, "problem": unit.problem,
                                            "condition": unit.condition, "repeat": unit.repeat, **record})

    def records(self, units: list[Unit]) -> Iterator[dict[str, Any]]:
        for unit in units:
            if (record := self.load(unit)) is not None:
                yield record
