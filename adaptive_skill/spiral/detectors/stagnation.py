"""Stagnation: the same failure keeps coming back while the agent keeps doing other things
(cosmetic edits, then the same test failure). Output that moves (a counter rising, fewer
failing tests) changes the error line, so it never counts as the same failure; a command that
failed this way and then succeeded was fixed, and only failures after that count."""

from __future__ import annotations

from adaptive_skill.config import StagnationConfig
from adaptive_skill.spiral.detectors.base import CountingDetector, Detection, History
from adaptive_skill.spiral.steps import StepView


class Stagnation(CountingDetector):
    name = "stagnation"
    config: StagnationConfig

    def feed(self, step: StepView, history: History) -> Detection | None:
        if not step.failed or not step.acted:
            return None  # a malformed reply is the monologue detector's, not a failure coming back
        window = history.recent(self.config.window)
        same = [s for s in window if s.failed and s.error_signature == step.error_signature]
        # A command that failed this way and then succeeded has been fixed: count from there.
        fixed = max((s.index for s in window if s.acted and not s.failed and s.action_key in
                     {f.action_key for f in same}), default=0)
        same = [s for s in same if s.index > fixed]
        score = self.score(same, self.config.repeats, step)
        if score is None:
            return None
        span = step.index - same[0].index
        # Steps of other work between the failures: without them this is plain repetition.
        between = sum(1 for s in window if s.index > same[0].index and s.error_signature != step.error_signature)
        if span < self.config.patience or between < 1:
            return None
        return Detection(self.name, score,
                         f"the same failure came back {len(same)} times over {span + 1} steps although you "
                         f"kept changing things: {step.error_signature[:160]}",
                         {"error": step.error_signature, "count": len(same), "steps": [s.index for s in same],
                          "other_steps": between},
                         span_start=same[0].index)
