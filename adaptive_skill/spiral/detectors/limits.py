"""Hard limits: steps, wall time, tokens, cost. Reaching one stops the attempt at once."""

from __future__ import annotations

from adaptive_skill.config import SpiralLimitsConfig
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.steps import StepView

_UNITS = {"steps": "max_steps", "elapsed_sec": "max_wall_time_sec", "tokens": "max_tokens", "cost": "max_cost"}


class HardLimits:
    name = "hard_limit"

    def __init__(self, config: SpiralLimitsConfig):
        self.config = config

    def feed(self, step: StepView, history: History) -> Detection | None:
        for measure, key in _UNITS.items():
            limit = getattr(self.config, key)
            value = step.totals.get(measure)
            if limit is not None and value is not None and value >= limit:
                return Detection(self.name, 1.0, f"the attempt reached spiral.limits.{key} ({value:g} >= {limit:g})",
                                 {"limit": key, "value": round(value, 6), "max": limit}, hard=True)
        return None
