"""Read a run directory as it is on disk, for a report: a finished run, one still going, or one
that crashed. Nothing here writes. Phase files may be missing or torn (then they count as absent);
the line logs (events.jsonl, costs.jsonl) may end in a torn line, which is skipped, but a bad line
anywhere else is an error naming file and line (a report from a damaged log would mislead)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from adaptive_skill.errors import UserError
from adaptive_skill.files import read_json
from adaptive_skill.llm.accounting import read_journal
from adaptive_skill.runs import RunDir

PHASES = ("solve", "observe", "evolve", "gate", "commit", "converge")  # a finished cycle has all of these
OPTIONAL_PHASES = ("explore", "propose")  # and these when the config asked for them


@dataclass
class Cycle:
    n: int
    root: Path
    phases: dict[str, dict[str, Any]] = field(default_factory=dict)  # phase name -> its <phase>.json
    events: list[dict[str, Any]] = field(default_factory=list)

    def get(self, phase: str) -> dict[str, Any]:
        return self.phases.get(phase) or {}

    def window(self, phase: str) -> tuple[float, float] | None:
        """(start, end) time of a phase from its events; an unfinished phase ends at +inf."""
        starts = [e["ts"] for e in self.events if e.get("event") == "phase_start" and e.get("phase") == phase]
        ends = [e["ts"] for e in self.events if e.get("event") == "phase_end" and e.get("phase") == phase]
        if not starts:
            return None
        return min(starts), max(ends) if ends else float("inf")


@dataclass
class Run:
    root: Path
    config: dict[str, Any]
    events: list[dict[str, Any]]
    checkpoint: dict[str, Any]
    cycles: list[Cycle]
    costs: list[dict[str, Any]] = field(default_factory=list)  # the cost journal's entries

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    def setting(self, *keys: str, default: Any = None) -> Any:
        """A value of the run's config.yaml, e.g. setting("gating", "margin")."""
        value: Any = self.config
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                return default
            value = value[key]
        return value


def load_run(path: Path) -> Run:
    root = Path(path)
    if not root.is_dir():
        raise UserError(f"{path}: no such run directory")
    layout = RunDir(root)
    if not (layout.events_path.exists() or layout.checkpoint_path.exists() or (root / "cycles").is_dir()):
        raise UserError(f"{path}: not a run directory (no events.jsonl, checkpoint.json or cycles/)")
    events = layout.events()  # a torn last line (crash mid-write) is skipped there, a bad one is an error
    return Run(root=root, config=_yaml(layout.config_path), events=events,
               checkpoint=read_json(layout.checkpoint_path, {}) or {}, cycles=_cycles(root, events),
               costs=read_journal(layout.costs_path))


def _cycles(root: Path, events: list[dict[str, Any]]) -> list[Cycle]:
    numbers = {int(p.name) for p in (root / "cycles").glob("[0-9]*") if p.is_dir() and p.name.isdigit()}
    numbers |= {e["cycle"] for e in events if isinstance(e.get("cycle"), int) and e.get("event") != "run_end"
                and e.get("event") != "run_resume"}
    cycles = []
    for n in sorted(numbers):
        folder = root / "cycles" / f"{n:03d}"
        phases = {}
        for phase in (*PHASES, *OPTIONAL_PHASES):
            data = read_json(folder / f"{phase}.json", None)
            if isinstance(data, dict):
                phases[phase] = data
        cycles.append(Cycle(n, folder, phases, [e for e in events if e.get("cycle") == n]))
    return cycles


def _yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}
