"""When the proposal loop stops: one rule per strategy, each a pure function of what was seen.

max_iterations and repeated failures are the loop's own limits and apply to every strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from adaptive_skill.config import NoveltyConfig


class StopRule(Protocol):
    name: str

    def check(self, scores: Sequence[float], clusters: int) -> str | None:
        """A one-line reason to stop after the latest score, or None to go on."""
        ...


@dataclass(frozen=True)
class Breakthrough:
    """Stop at the first task at least `threshold` away from everything before it."""

    threshold: float
    name: str = "breakthrough"

    def check(self, scores: Sequence[float], clusters: int) -> str | None:
        if scores and scores[-1] >= self.threshold:
            return f"novelty {scores[-1]:.3f} reached the threshold {self.threshold:g}"
        return None


@dataclass(frozen=True)
class Exhaust:
    """Go on while the last `window` tasks are novel on average; stop once the frontier runs dry."""

    threshold: float
    window: int
    name: str = "exhaust"

    def check(self, scores: Sequence[float], clusters: int) -> str | None:
        if len(scores) < self.window:
            return None
        mean = sum(scores[-self.window:]) / self.window
        if mean < self.threshold:
            return f"mean novelty of the last {self.window} tasks {mean:.3f} fell below {self.threshold:g}"
        return None


@dataclass(frozen=True)
class Coverage:
    """Stop once the tasks fall into `clusters` distinct clusters."""

    clusters: int
    name: str = "coverage"

    def check(self, scores: Sequence[float], clusters: int) -> str | None:
        if clusters >= self.clusters:
            return f"{clusters} distinct clusters covered (target {self.clusters})"
        return None


def stop_rule(config: NoveltyConfig) -> StopRule:
    if config.strategy == "breakthrough":
        return Breakthrough(config.threshold)
    if config.strategy == "exhaust":
        return Exhaust(config.exhaust_threshold, config.exhaust_window)
    return Coverage(config.clusters)
