"""Monologue and self-reference: turns that talk instead of act, and thinking that turns on itself
("let me plan how to plan", "think about how to approach the approach")."""

from __future__ import annotations

import re

from adaptive_skill.config import MonologueConfig
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.steps import StepView

_META = r"(?:plan(?:ning)?|think(?:ing)?|approach(?:ing)?|strateg(?:y|ies|i[sz]e)|decid(?:e|ing)|reason(?:ing)?)"
_SELF_REFERENCE = re.compile(
    rf"\b{_META}\b[^.\n]{{0,40}}?\b(?:how|way|ways|when|whether)\s+(?:to|i|we)\s+(?:\w+\s+){{0,2}}?{_META}\b"
    rf"|\b(?:meta[- ]?plan\w*|re-?plan(?:ning)?\s+(?:the|my)\s+plan)\b"
    rf"|\b{_META}\s+(?:about|on|for)\s+(?:my|the|our)\s+(?:own\s+)?{_META}\b",
    re.IGNORECASE)


def is_self_referential(thought: str) -> bool:
    return bool(_SELF_REFERENCE.search(thought))


class Monologue:
    name = "monologue"

    def __init__(self, config: MonologueConfig):
        self.config = config
        self.silent: list[int] = []  # steps of the current run of turns without an action

    def feed(self, step: StepView, history: History) -> Detection | None:
        self.silent = [] if step.acted else [*self.silent, step.index]
        if len(self.silent) >= self.config.max_silent_turns:
            return Detection(self.name, min(2.0, len(self.silent) / self.config.max_silent_turns),
                             f"your last {len(self.silent)} replies talked without running anything",
                             {"kind": "no_action", "steps": list(self.silent)}, span_start=self.silent[0])
        if not step.self_reference:
            return None
        recent = [s for s in history.recent(self.config.self_reference_window) if s.self_reference]
        if len(recent) < self.config.self_reference_hits:
            return None
        return Detection(self.name, min(2.0, len(recent) / self.config.self_reference_hits),
                         "you are planning how to plan instead of working on the task",
                         {"kind": "self_reference", "steps": [s.index for s in recent],
                          "quote": _SELF_REFERENCE.search(step.thought).group(0)[:120]},
                         span_start=recent[0].index)
