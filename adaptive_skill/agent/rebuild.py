"""Reading trajectory files, and rebuilding per-step records from bare chat messages for
trajectories that carry no `steps`. The one implementation that observe/ and spiral/ share.

Both tool protocols of the agent are understood: native tool calls answered by `tool` messages,
and the text protocol (one fenced block per reply, answered by "Observation (<tool>):\n..."). The
exit code and the timeout flag come back from the markers the agent appends to every bash
observation ("[exit code N]" / "[command timed out and was killed]") and from nothing else.
Messages of other agents still yield steps (tool name and first argument), with unknown exits.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from adaptive_skill.agent.protocol import FormatProblem, parse_text
from adaptive_skill.agent.trajectory import StepRecord
from adaptive_skill.errors import UserError

_EXIT_MARKER = re.compile(r"\n?\[exit code (-?\d+)\]\s*$")
_TIMEOUT_MARKER = re.compile(r"\n?\[command timed out and was killed\]\s*$")
_OBSERVATION = re.compile(r"Observation \(([A-Za-z_]+)\):\n?", re.ASCII)
_REMINDER = re.compile(r"^Your reply could not be used: (.*?)\. Reply with exactly one fenced block", re.DOTALL)
_STEP_FIELDS = {f.name for f in fields(StepRecord)}


class TrajectoryFileError(UserError):
    """A trajectory file that cannot be read (missing, not JSON, not a trajectory)."""


def read_trajectory_json(path: str | Path) -> Any:
    """The parsed JSON of a trajectory file; every problem is one TrajectoryFileError naming it."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TrajectoryFileError(f"{path}: no such trajectory file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TrajectoryFileError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise TrajectoryFileError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None


def recorded_steps(data: Any) -> list[StepRecord] | None:
    """The `steps` a saved trajectory recorded, or None when it has none (then rebuild them)."""
    raw = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(raw, list) or not raw:
        return None
    if not all(isinstance(s, dict) for s in raw):
        raise ValueError("'steps' is not a list of step records")
    try:
        return [StepRecord(**{k: v for k, v in s.items() if k in _STEP_FIELDS}) for s in raw]
    except TypeError as exc:  # e.g. a step without its index
        raise ValueError(f"'steps' is not a list of step records: {exc}") from None


def rebuild_steps(messages: list[dict[str, Any]]) -> list[StepRecord]:
    native = any(m.get("role") == "tool" or m.get("tool_calls") for m in messages)
    steps: list[StepRecord] = []
    by_call: dict[str, StepRecord] = {}
    waiting: StepRecord | None = None  # the last step whose observation has not come yet
    for position, message in enumerate(messages):
        role, content = message.get("role"), message_text(message.get("content"))
        if role == "assistant":
            waiting = _assistant_step(len(steps) + 1, position, message, native, by_call)
            steps.append(waiting)
        elif role == "tool":
            step = by_call.pop(str(message.get("tool_call_id")), None) or waiting
            if step is not None:
                _observe(step, content)
                waiting = None if step is waiting else waiting
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
    if calls:
        for call in calls:
            by_call[str(call.get("id"))] = step
        if len(calls) > 1:
            step.error = f"format: {len(calls)} tool calls in one reply; make one at a time"
            return step
        function = calls[0].get("function") or {}
        step.tool, step.argument = str(function.get("name") or "?"), _first_argument(function.get("arguments"))
        return step
    if native:
        step.error = "format: no tool call in the reply"
        return step
    try:
        action = parse_text(message_text(message.get("content")))
    except FormatProblem as problem:
        step.error = f"format: {problem}"
        return step
    step.tool, step.argument = action.tool, action.argument
    return step


def _observe(step: StepRecord, content: str) -> None:
    if reminder := _REMINDER.match(content):
        # The agent refused the reply (unknown tool, bad arguments): like the recorded steps, the
        # step has no tool and a format error.
        if step.error is None:
            step.error = f"format: {reminder.group(1)}"
        step.tool, step.argument = None, ""
        return
    if step.tool == "bash":
        if timeout := _TIMEOUT_MARKER.search(content):
            step.output, step.timed_out = content[:timeout.start()], True
        elif exit_marker := _EXIT_MARKER.search(content):
            step.output, step.exit_code = content[:exit_marker.start()], int(exit_marker.group(1))
        else:
            step.output = content
    elif step.tool == "read_skill" and content.startswith("error: "):
        step.error = content.removeprefix("error: ")
    else:
        step.output = content


def _first_argument(arguments: Any) -> str:
    """The command (or name, or answer) of a tool call: its only string argument, usually."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError:
            return arguments
    if isinstance(arguments, dict):
        for key in ("command", "cmd", "name", "answer"):
            if isinstance(arguments.get(key), str):
                return arguments[key]
        for value in arguments.values():
            if isinstance(value, str):
                return value
    return "" if arguments is None else json.dumps(arguments)


def message_text(content: Any) -> str:
    """Message content as text (OpenAI content may be a list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)
