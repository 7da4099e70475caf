"""Replaying a saved trajectory through the monitor (`adaptive-skill spiral scan`).

A trajectory file is a JSON list of chat messages, or an object with `messages` (our agent's
files also carry `steps`, with full outputs and exit codes, which are used when present). From
bare messages the steps are rebuilt: native tool calls with their tool messages, or the text
protocol (one fenced block per reply, answered by "Observation (<tool>):\n..."); exit codes and
timeouts come from the "[exit code N]" / "[command timed out and was killed]" lines the agent
appends to each observation.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from adaptive_skill.agent.protocol import FormatProblem, parse_text
from adaptive_skill.agent.trajectory import StepRecord, Trajectory
from adaptive_skill.errors import UserError
from adaptive_skill.spiral.steps import message_text

_EXIT = re.compile(r"\n?\[exit code (-?\d+)\]\s*$")
_TIMEOUT = re.compile(r"\n?\[command timed out and was killed\]\s*$")
_OBSERVATION = re.compile(r"^Observation \((\w+)\):\n?")
_REMINDER = re.compile(r"^Your reply could not be used: (.*?)\. Reply with exactly one", re.DOTALL)
_ARGUMENT_KEY = {"bash": "command", "read_skill": "name", "submit": "answer"}
_STEP_FIELDS = {f.name for f in fields(StepRecord)}


class TrajectoryFileError(UserError):
    """A trajectory file that cannot be read as one."""


def load_trajectory(path: str | Path) -> Trajectory:
    """The trajectory in a file, with its steps recorded or rebuilt; one-line errors naming it."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TrajectoryFileError(f"{path}: no such trajectory file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TrajectoryFileError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise TrajectoryFileError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    try:
        return trajectory_from_data(data)
    except ValueError as exc:
        raise TrajectoryFileError(f"{path}: {exc}") from None


def trajectory_from_data(data: Any) -> Trajectory:
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list) or not all(isinstance(m, dict) and "role" in m for m in messages):
        raise ValueError("expected a list of chat messages or an object with 'messages'")
    recorded = data.get("steps") if isinstance(data, dict) else None
    if isinstance(recorded, list) and recorded:
        try:
            steps = [StepRecord(**{k: v for k, v in s.items() if k in _STEP_FIELDS}) for s in recorded]
        except (TypeError, AttributeError):
            raise ValueError("'steps' is not a list of step records") from None
    else:
        steps = rebuild_steps(messages)
    instruction = data.get("instruction") if isinstance(data, dict) else None
    if not isinstance(instruction, str):
        instruction = next((message_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
    metadata = data.get("metadata") if isinstance(data, dict) and isinstance(data.get("metadata"), dict) else {}
    return Trajectory(task_id=str(data.get("task_id", "")) if isinstance(data, dict) else "",
                      model=str(data.get("model", "")) if isinstance(data, dict) else "",
                      instruction=instruction, messages=messages, steps=steps, metadata=dict(metadata))


def rebuild_steps(messages: list[dict[str, Any]]) -> list[StepRecord]:
    native = any(m.get("role") == "tool" or m.get("tool_calls") for m in messages)
    steps: list[StepRecord] = []
    by_call: dict[str, StepRecord] = {}
    waiting: StepRecord | None = None  # the step whose observation comes next
    for position, message in enumerate(messages):
        role, content = message.get("role"), message_text(message.get("content"))
        if role == "assistant":
            waiting = _assistant_step(len(steps) + 1, position, message, native, by_call)
            steps.append(waiting)
        elif role == "tool":
            step = by_call.pop(str(message.get("tool_call_id")), None) or waiting
            if step is not None:
                _observe(step, content)
                waiting = None
        elif role == "user" and waiting is not None:
            if match := _OBSERVATION.match(content):
                _observe(waiting, content[match.end():])
                waiting = None
            elif _REMINDER.match(content):
                _observe(waiting, content)
                waiting = None
    return steps


def _assistant_step(index: int, position: int, message: dict[str, Any], native: bool,
                    by_call: dict[str, StepRecord]) -> StepRecord:
    step = StepRecord(index=index, tool=None, message_index=position)
    calls = message.get("tool_calls") or []
    for call in calls:
        by_call[str(call.get("id"))] = step
    if len(calls) > 1:
        step.error = f"format: {len(calls)} tool calls in one reply; make one at a time"
    elif calls:
        function = calls[0].get("function") or {}
        step.tool = str(function.get("name") or "?")
        step.argument = _argument(step.tool, function.get("arguments"))
    elif native:
        step.error = "format: no tool call in the reply"
    else:
        try:
            action = parse_text(message_text(message.get("content")))
            step.tool, step.argument = action.tool, action.argument
        except FormatProblem as problem:
            step.error = f"format: {problem}"
    return step


def _argument(tool: str, raw: Any) -> str:
    try:
        arguments = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return str(raw)
    if not isinstance(arguments, dict):
        return str(raw or "")
    value = arguments.get(_ARGUMENT_KEY.get(tool, ""))
    if value is None:  # another agent's tool: its first text argument says what it did
        value = next((v for v in arguments.values() if isinstance(v, str)), json.dumps(arguments, sort_keys=True))
    return str(value)


def _observe(step: StepRecord, content: str) -> None:
    if reminder := _REMINDER.match(content):
        # The agent refused the call (unknown tool, bad arguments): no tool ran.
        step.error = f"format: {reminder.group(1)}"
        step.tool, step.argument = None, ""
        return
    if match := _EXIT.search(content):
        step.exit_code, content = int(match.group(1)), content[:match.start()]
    elif match := _TIMEOUT.search(content):
        step.timed_out, content = True, content[:match.start()]
    if step.tool == "read_skill" and content.startswith("error: "):
        step.error = content.removeprefix("error: ")
    step.output = content
