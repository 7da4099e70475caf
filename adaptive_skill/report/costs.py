"""Cost and tokens per cycle and role. The events carry the run's running totals at each phase end;
the agent's and the evolver's shares come from their trajectories, and the judge has the rest
(its calls leave no trajectory)."""

from __future__ import annotations

from typing import Any

from adaptive_skill.report.attempts import Attempt
from adaptive_skill.report.load import Run

ROLES = ("agent", "judge", "evolver")


def per_cycle(run: Run, attempts: list[Attempt]) -> dict[int, dict[str, dict[str, float]]]:
    """cycle -> role -> {"cost", "tokens"}."""
    spent = _cycle_totals(run)
    shares: dict[int, dict[str, dict[str, float]]] = {}
    for attempt in attempts:
        if attempt.cycle is None or attempt.trajectory is None:
            continue
        role = "evolver" if attempt.phase == "evolve" else "agent"
        data = attempt.load()
        bucket = shares.setdefault(attempt.cycle, {}).setdefault(role, {"cost": 0.0, "tokens": 0.0})
        bucket["cost"] += float(data.get("cost") or 0.0)
        bucket["tokens"] += float((data.get("usage") or {}).get("total_tokens") or 0)
    table = {}
    for cycle in run.cycles:
        roles = {role: dict(shares.get(cycle.n, {}).get(role, {"cost": 0.0, "tokens": 0.0})) for role in ROLES}
        total = spent.get(cycle.n)
        if total is not None:
            for key in ("cost", "tokens"):
                roles["judge"][key] = max(0.0, total[key] - roles["agent"][key] - roles["evolver"][key])
        table[cycle.n] = roles
    return table


def _cycle_totals(run: Run) -> dict[int, dict[str, float]]:
    """What each cycle added to the run's totals, from the last running total of each cycle."""
    last: dict[int, dict[str, Any]] = {}
    for event in run.events:
        if event.get("event") in ("phase_end", "cycle_end") and isinstance(event.get("cost"), dict):
            last[event["cycle"]] = event["cost"]
    totals, before = {}, {"cost": 0.0, "total_tokens": 0}
    for n in sorted(last):
        now = last[n]
        totals[n] = {"cost": float(now.get("cost", 0.0)) - float(before.get("cost", 0.0)),
                     "tokens": float(now.get("total_tokens", 0)) - float(before.get("total_tokens", 0))}
        before = now
    return totals


def run_roles(run: Run) -> dict[str, dict[str, Any]]:
    """The run's totals per role, from the latest checkpoint."""
    return (run.checkpoint.get("accounting") or {}).get("roles") or {}
