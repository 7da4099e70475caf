"""Replaying a saved trajectory through the monitor (`adaptive-skill spiral scan`).

A trajectory file is a JSON list of chat messages, or an object with `messages` (our agent's
files also carry `steps`, with full outputs and exit codes, which are used when present). From
bare messages the steps are rebuilt: native tool calls with their tool messages, or the text
protocol (one fenced block per reply, answered by "Observation (<tool>):\n..."); exit codes and
timeouts come from the "[exit code N]" / "[command timed out and was killed]" lines the agent
appends to each observation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_skill.agent.rebuild import (
    TrajectoryFileError,
    message_text,
    read_trajectory_json,
    rebuild_steps,
    recorded_steps,
)
from adaptive_skill.agent.trajectory import Trajectory

__all__ = ["TrajectoryFileError", "load_trajectory", "rebuild_steps", "trajectory_from_data"]


def load_trajectory(path: str | Path) -> Trajectory:
    """The trajectory in a file, with its steps recorded or rebuilt; one-line errors naming it."""
    data = read_trajectory_json(path)
    try:
        return trajectory_from_data(data)
    except ValueError as exc:
        raise TrajectoryFileError(f"{path}: {exc}") from None


def trajectory_from_data(data: Any) -> Trajectory:
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list) or not all(isinstance(m, dict) and "role" in m for m in messages):
        raise ValueError("expected a list of chat messages or an object with 'messages'")
    steps = recorded_steps(data)
    if steps is None:
        steps = rebuild_steps(messages)
    instruction = data.get("instruction") if isinstance(data, dict) else None
    if not isinstance(instruction, str):
        instruction = next((message_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
    metadata = data.get("metadata") if isinstance(data, dict) and isinstance(data.get("metadata"), dict) else {}
    return Trajectory(task_id=str(data.get("task_id", "")) if isinstance(data, dict) else "",
                      model=str(data.get("model", "")) if isinstance(data, dict) else "",
                      instruction=instruction, messages=messages, steps=steps, metadata=dict(metadata))
