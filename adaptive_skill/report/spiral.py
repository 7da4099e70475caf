"""Spiral events of every attempt: the loop monitor's interventions (nudge, restart, rollback,
escalate, terminate) and how many plain detections came before them."""

from __future__ import annotations

from dataclasses import dataclass

from adaptive_skill.report.attempts import Attempt


@dataclass
class SpiralEvent:
    attempt: Attempt
    step: int | None
    detector: str
    action: str
    summary: str


def interventions(attempts: list[Attempt]) -> list[SpiralEvent]:
    found = []
    for attempt in attempts:
        for event in attempt.load().get("events") or []:
            if not isinstance(event, dict) or event.get("action") == "detected":
                continue
            evidence = event.get("evidence") if isinstance(event.get("evidence"), dict) else {}
            found.append(SpiralEvent(attempt, event.get("step"), str(event.get("detector", "")),
                                     str(event.get("action", "")), str(evidence.get("summary", ""))))
    return found


def detections(attempts: list[Attempt]) -> int:
    return sum(1 for a in attempts for e in a.load().get("events") or []
               if isinstance(e, dict) and e.get("action") == "detected")
