"""Counts of the monitor's detections and interventions in a saved trajectory, for the judge and
the evolver."""

from __future__ import annotations

from collections import Counter
from typing import Any

LADDER = ("nudge", "restart", "rollback", "escalate", "terminate")


def spiral_summary(trajectory: dict[str, Any] | list[Any]) -> dict[str, Any]:
    """`trajectory`: a saved trajectory dict (a bare message list has no events and counts zero)."""
    data = trajectory if isinstance(trajectory, dict) else {}
    events = [e for e in data.get("events") or [] if isinstance(e, dict)]
    detections = [e for e in events if e.get("action") == "detected"]
    actions = [e for e in events if e.get("action") in LADDER]
    strongest = max((LADDER.index(e["action"]) for e in actions), default=None)
    metadata = data.get("metadata") or {}
    return {
        "detections": len(detections),
        "interventions": len(actions),
        "by_detector": dict(Counter(str(e.get("detector")) for e in detections)),
        "by_action": dict(Counter(str(e.get("action")) for e in actions)),
        "first_detection_step": min((e.get("step") for e in detections if isinstance(e.get("step"), int)),
                                    default=None),
        "first_intervention_step": min((e.get("step") for e in actions if isinstance(e.get("step"), int)),
                                       default=None),
        "strongest_action": LADDER[strongest] if strongest is not None else None,
        "needs_review": bool(metadata.get("needs_review")),
        "halted": data.get("status") == "halted",
    }
