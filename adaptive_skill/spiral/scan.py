"""What the monitor would have done over a whole saved trajectory (`adaptive-skill spiral scan`).
The trajectory is read by the kernel (any supported format); its steps are fed to the monitor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adaptive_skill.spiral.monitor import SpiralMonitor
from adaptive_skill.trajectory import Trajectory, as_view

if TYPE_CHECKING:
    from adaptive_skill.config import SpiralConfig
    from adaptive_skill.protocols import Embedder
    from adaptive_skill.trajectory import TrajectoryView

_STOPS = ("escalate", "terminate")


def scan(trajectory: TrajectoryView | Trajectory | dict | list, config: SpiralConfig,
         embedder: Embedder | None) -> dict[str, Any]:
    """Feed the steps one at a time, as the agent would have. The replay stops where the monitor
    would have stopped the agent; context changes are not played out (the recorded agent did not
    see them). `first_step` is the first intervention, counted in assistant turns from 1;
    `failed_steps` the steps the monitor saw fail (the kernel's one failure definition)."""
    view = as_view(trajectory)
    replay = Trajectory(task_id=view.task_id, model=view.model, instruction=view.instruction or "",
                        messages=view.messages, metadata={})
    monitor = SpiralMonitor(config, embedder)
    first_step = None
    for record in view.steps:
        replay.steps.append(record)
        context = replay.messages[:_context_end(view.steps, len(view.messages), record.index)]
        intervention = monitor.observe(record, replay, context)
        if intervention is None:
            continue
        first_step = record.index if first_step is None else first_step
        if intervention.action in _STOPS:
            break
    return {"spiral": first_step is not None, "first_step": first_step, "failed_steps": monitor.failed_steps,
            "events": [_event(event) for event in monitor.records]}


def _event(record: dict[str, Any]) -> dict[str, Any]:
    """A detection or an intervention as the report shows it; an intervention also says, in plain
    words, what evidence triggered it (`explanation`)."""
    event = {key: record.get(key) for key in ("step", "detector", "score", "action", "evidence")}
    if record.get("action") != "detected":
        event["evidence"] = dict(event["evidence"] or {})
        event["explanation"] = event["evidence"].pop("explanation", "")
    return event


def report_text(report: dict[str, Any]) -> str:
    """The report as a person reads it: one line on the run, then one paragraph per intervention."""
    failed = report["failed_steps"]
    head = (f"{'A spiral' if report['spiral'] else 'No spiral'}: first intervention at step {report['first_step']}"
            if report["spiral"] else "No spiral: the monitor would not have intervened")
    listed = f" ({', '.join(map(str, failed[:20]))}{' ...' if len(failed) > 20 else ''})" if failed else ""
    lines = [f"{head}; {len(failed)} failed step{'s' if len(failed) != 1 else ''}{listed}."]
    detections = [e for e in report["events"] if e["action"] == "detected"]
    if detections and not report["spiral"]:
        lines.append(f"{len(detections)} detections below the threshold: "
                     + ", ".join(f"{e['detector']} at step {e['step']}" for e in detections[:8])
                     + (" ..." if len(detections) > 8 else "") + ".")
    for event in report["events"]:
        if event["action"] != "detected":
            lines += ["", f"Step {event['step']}, {event['action']}: {event.get('explanation') or ''}".rstrip()]
    return "\n".join(lines) + "\n"


def _context_end(steps: list, n_messages: int, index: int) -> int:
    """The messages up to (not including) the next step's assistant turn."""
    later = [s.message_index for s in steps if s.index > index]
    return min(later) if later else n_messages
