"""Cost and tokens per cycle and role. Each phase_end event carries the run's running totals, so
a phase's cost is the step from the previous phase_end. Solve runs only the agent, observe only
the judge, evolve only the evolver (single or team); the gate runs the agent on the holdout tasks
(its share read from those attempts' trajectories) and the judge scores them (the rest)."""

from __future__ import annotations

from typing import Any

from adaptive_skill.report.attempts import Attempt
from adaptive_skill.report.load import Run

ROLES = ("agent", "judge", "evolver")
GATE_PHASES = ("gate-mutated", "gate-baseline")


def per_cycle(run: Run, attempts: list[Attempt]) -> dict[int, dict[str, dict[str, float]]]:
    """cycle -> role -> {"cost", "tokens"}, over the cycle's finished phases."""
    phases = _phase_steps(run)
    gate_agent: dict[int, dict[str, float]] = {}
    for attempt in attempts:
        if attempt.phase in GATE_PHASES and attempt.cycle is not None:
            data = attempt.load()
            share = gate_agent.setdefault(attempt.cycle, _zero())
            share["cost"] += float(data.get("cost") or 0.0)
            share["tokens"] += float((data.get("usage") or {}).get("total_tokens") or 0)
    table = {}
    for cycle in run.cycles:
        step = {phase: phases.get((cycle.n, phase), _zero()) for phase in ("solve", "observe", "evolve", "gate")}
        # a gate that never finished has no step yet: its attempts count when it does
        in_gate = gate_agent.get(cycle.n, _zero()) if (cycle.n, "gate") in phases else _zero()
        table[cycle.n] = {
            "agent": _add(step["solve"], in_gate),
            "judge": _add(step["observe"], {k: max(0.0, step["gate"][k] - in_gate[k]) for k in in_gate}),
            "evolver": step["evolve"],
        }
    return table


def _phase_steps(run: Run) -> dict[tuple[int, str], dict[str, float]]:
    """(cycle, phase) -> what the phase added to the run's totals."""
    steps, before = {}, {"cost": 0.0, "total_tokens": 0}
    for event in run.events:
        if event.get("event") != "phase_end" or not isinstance(event.get("cost"), dict):
            continue
        now = event["cost"]
        steps[(event.get("cycle"), event.get("phase"))] = {
            "cost": max(0.0, float(now.get("cost", 0.0)) - float(before.get("cost", 0.0))),
            "tokens": max(0.0, float(now.get("total_tokens", 0)) - float(before.get("total_tokens", 0)))}
        before = now
    return steps


def _zero() -> dict[str, float]:
    return {"cost": 0.0, "tokens": 0.0}


def _add(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {k: a[k] + b[k] for k in a}


def run_roles(run: Run) -> dict[str, dict[str, Any]]:
    """The run's totals per role, from the latest checkpoint."""
    return (run.checkpoint.get("accounting") or {}).get("roles") or {}
