"""One read-only view of a trajectory, whatever shape it came in.

Accepted: the agent's `Trajectory`, its saved dict (`to_dict()` / the JSON file), an object with
only `messages`, or a bare list of chat messages. Recorded `steps` (full outputs, exit codes,
timeout flags) are used when present; otherwise steps are rebuilt from the messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adaptive_skill.agent.rebuild import (
    TrajectoryFileError,
    message_text,
    read_trajectory_json,
    rebuild_steps,
    recorded_steps,
)
from adaptive_skill.agent.trajectory import StepRecord, Trajectory

__all__ = ["TrajectoryFileError", "TrajectoryView", "as_view", "load_view"]


@dataclass
class TrajectoryView:
    messages: list[dict[str, Any]]
    steps: list[StepRecord]
    events: list[dict[str, Any]] = field(default_factory=list)
    instruction: str | None = None
    status: str | None = None  # None when only messages were given and nothing was submitted
    submission: str | None = None
    usage: dict[str, int] | None = None  # None: unknown (bare messages)
    cost: float | None = None
    duration_sec: float | None = None
    recorded: bool = False  # True: steps as the agent recorded them; False: rebuilt from messages


def as_view(trajectory: TrajectoryView | Trajectory | dict[str, Any] | list[dict[str, Any]]) -> TrajectoryView:
    if isinstance(trajectory, TrajectoryView):
        return trajectory
    if isinstance(trajectory, Trajectory):
        return _from_dict(trajectory.to_dict())
    if isinstance(trajectory, list):
        return _from_dict({"messages": trajectory})
    if isinstance(trajectory, dict):
        return _from_dict(trajectory)
    raise TypeError(f"expected a list of chat messages or an object with 'messages', not {type(trajectory).__name__}")


def load_view(path: str | Path) -> TrajectoryView:
    """Read a trajectory file; every problem is one TrajectoryFileError naming the file."""
    data = read_trajectory_json(path)
    try:
        return as_view(data)
    except (TypeError, ValueError) as exc:
        raise TrajectoryFileError(f"{path}: {exc}") from None


def _from_dict(data: dict[str, Any]) -> TrajectoryView:
    messages = data.get("messages")
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise ValueError("expected a list of chat messages or an object with 'messages'")
    steps = recorded_steps(data)
    recorded = steps is not None
    if steps is None:
        steps = rebuild_steps(messages)
    events = data.get("events") if isinstance(data.get("events"), list) else []
    submission = data.get("submission")
    if submission is None:
        submission = next((s.argument for s in reversed(steps) if s.tool == "submit"), None)
    status = data.get("status") or ("submitted" if submission is not None else None)
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
    cost, duration = data.get("cost"), data.get("duration_sec")
    return TrajectoryView(
        messages=messages, steps=steps, events=[e for e in events if isinstance(e, dict)],
        instruction=data.get("instruction") or _first_user_message(messages), status=status,
        submission=submission, usage=usage, cost=float(cost) if isinstance(cost, int | float) else None,
        duration_sec=float(duration) if isinstance(duration, int | float) else None, recorded=recorded)


def _first_user_message(messages: list[dict[str, Any]]) -> str | None:
    return next((message_text(m.get("content")) for m in messages if m.get("role") == "user"), None)
