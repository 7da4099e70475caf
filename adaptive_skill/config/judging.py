"""How the observe phase scores attempts: the label-free judge and people's ratings from the review
app (the holdout gate's settings are in gating.py)."""

from __future__ import annotations

from pydantic import Field, model_validator

from adaptive_skill.config.base import _Strict


class JudgeConfig(_Strict):
    """The label-free judge (observe/). Owned by the observe work; the engine reads these."""

    categories: list[str] = Field(default_factory=lambda: [
        "build", "debug", "data-processing", "git", "system-administration", "security",
        "file-operations", "text-processing", "networking", "scripting", "other"])
    pass_threshold: float = Field(7.0, ge=0.0, le=10.0)  # score >= this counts as "likely solved"
    compression_budget_tokens: int = Field(2000, ge=200)
    # Checks of the final state (observe/checks.py): each train attempt's paths are kept as it left
    # them, the judge's model writes read-only checks from the instruction, they run on a copy in a
    # fresh container, and the judge reads what they printed. Docker only.
    check_state: bool = False
    check_timeout_sec: float = Field(10.0, gt=0, le=120)


class ReviewConfig(_Strict):
    """People's ratings from `adaptive-skill review` (docs/review.md) in the engine's observe phase."""

    # An escalated batch trajectory that people rated gets their verdict in place of the judge's
    # (the judge's is kept beside it); an event `human_verdict` marks each one.
    human_verdicts: bool = False
    # With human_verdicts: stop the run before observing a batch whose escalated trajectories nobody
    # rated yet (event `review_wait`, status stopped); rate them, then `evolve --resume`.
    wait_for_review: bool = False

    @model_validator(mode="after")
    def _needs_verdicts(self) -> ReviewConfig:
        if self.wait_for_review and not self.human_verdicts:
            raise ValueError("wait_for_review needs human_verdicts: true")
        return self
