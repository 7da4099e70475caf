"""What the monitor says and does to the agent's context. The progress summary is built from the
trajectory itself, not by a model: commands that worked, files written, failures seen, the loop."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adaptive_skill.agent.trajectory import StepRecord, Trajectory
from adaptive_skill.spiral.detectors.base import Detection, quote
from adaptive_skill.spiral.files import file_writes
from adaptive_skill.spiral.steps import is_failure
from adaptive_skill.spiral.text import clean_output, error_line

PREFIX = "[loop monitor]"
_ADVICE = ("Stop repeating what did not work. Say in one sentence what you have learnt, then take a "
           "clearly different approach.")


def describe(detections: list[Detection]) -> str:
    return "; ".join(d.summary for d in detections[:3])


def nudge_message(detections: list[Detection]) -> str:
    return f"{PREFIX} It looks like you are going in circles: {describe(detections)}. {_ADVICE}"


def progress_summary(trajectory: Trajectory, detections: list[Detection], upto: int) -> str:
    steps = [s for s in trajectory.steps if s.index <= upto]
    worked = _distinct(s.argument for s in reversed(steps) if s.tool == "bash" and not is_failure(s))[:8]
    written = _distinct(w.path for s in steps if s.tool == "bash" for w in file_writes(s.argument))[:10]
    failures = Counter(f"{quote(s.argument, 60)} -> {error_line(s.output) or s.error or 'failed'}"[:200]
                       for s in steps if s.tool == "bash" and is_failure(s))
    lines = [f"{PREFIX} Your context was reset after {len(steps)} steps because you were going in circles: "
             f"{describe(detections)}.", "", "What you did so far (from the record):"]
    if worked:
        lines.append("- commands that worked (latest first): " + ", ".join(quote(c, 60) for c in worked))
    if written:
        lines.append("- files you wrote: " + ", ".join(written))
    for failure, count in failures.most_common(5):
        lines.append(f"- failed{f' {count} times' if count > 1 else ''}: {failure}")
    if not (worked or written or failures):
        lines.append("- nothing yet")
    if last := _last_output(steps, detections):
        lines += ["", "The last output of the loop:", last]
    lines += ["", _ADVICE]
    return "\n".join(lines)


def restart_context(trajectory: Trajectory) -> list[dict[str, Any]]:
    """The system prompt and the instruction, as the attempt began."""
    return [m for m in trajectory.messages[:2] if m.get("role") in ("system", "user")]


def rollback_context(trajectory: Trajectory, context: list[dict[str, Any]],
                     span_start: int) -> tuple[list[dict[str, Any]], list[int]]:
    """The context without the looping span: everything from the assistant turn of `span_start`
    (or the first later turn still in the context) on. Returns the new context and the dropped steps."""
    step_of = {id(trajectory.messages[s.message_index]): s.index for s in trajectory.steps
               if s.message_index < len(trajectory.messages)}
    for position, message in enumerate(context):
        step = step_of.get(id(message))
        if step is not None and step >= span_start:
            dropped = sorted({i for m in context[position:] if (i := step_of.get(id(m))) is not None})
            return context[:position], dropped
    return list(context), []


def rollback_message(detections: list[Detection], dropped: list[int]) -> str:
    span = f"steps {dropped[0]}-{dropped[-1]}" if len(dropped) > 1 else f"step {dropped[0]}" if dropped else "nothing"
    return (f"{PREFIX} I removed {span} from your context: {describe(detections)}. That path did not lead "
            f"anywhere; {_ADVICE[0].lower()}{_ADVICE[1:]}")


def _distinct(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item.strip(), None)
    return [item for item in seen if item]


def _last_output(steps: list[StepRecord], detections: list[Detection]) -> str:
    loop_steps = {i for d in detections for i in d.evidence.get("steps", []) if isinstance(i, int)}
    for step in reversed(steps):
        if step.index in loop_steps and (step.output or step.error):
            text = clean_output(step.output or step.error or "").strip().split("\n")
            shown = text[:6] + (["..."] + text[-4:] if len(text) > 10 else text[6:])
            return "\n".join(f"    {line[:200]}" for line in shown)[:1200]
    return ""
