"""The loop monitor's settings (adaptive_skill/spiral, docs/spiral.md): each detector, the hard
limits, the ladder of interventions."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from adaptive_skill.config.base import _Strict


class SpiralDetectorConfig(_Strict):
    """Shared by every spiral detector: whether it runs and how much one firing adds to the risk."""

    enabled: bool = True
    weight: float = Field(1.0, ge=0.0)


class ExactRepetitionConfig(SpiralDetectorConfig):
    window: int = Field(8, ge=2)  # steps looked back
    repeats: int = Field(3, ge=2)  # same normalised action with the same result this often


class SemanticRepetitionConfig(SpiralDetectorConfig):
    weight: float = Field(0.6, ge=0.0)
    window: int = Field(6, ge=2)
    min_similar: int = Field(2, ge=1)  # earlier steps in the window at least `similarity` alike
    # Cosine at which two steps count as the same intent; None: the embedder's own level (the
    # lexical one scores paraphrases far lower than a neural model does).
    similarity: float | None = Field(None, gt=0.0, le=1.0)


class AlternationConfig(SpiralDetectorConfig):
    max_period: int = Field(3, ge=2)  # A,B,A,B is period 2; A,B,C,A,B,C period 3
    cycles: int = Field(3, ge=2)  # full periods in a row over actions and their results
    file_cycles: int = Field(2, ge=2)  # X,Y,X,Y versions of one file (edit and revert)


class ParameterTweakConfig(SpiralDetectorConfig):
    window: int = Field(24, ge=4)  # steps looked back
    rounds: int = Field(4, ge=2)  # re-runs of one check after a setting changed, with no better result


class IntentRepetitionConfig(SpiralDetectorConfig):
    window: int = Field(12, ge=2)  # steps looked back
    install_repeats: int = Field(3, ge=2)  # failed installs of the same packages, whatever the tool or spelling
    search_repeats: int = Field(4, ge=2)  # searches in a row that found nothing
    poll_repeats: int = Field(5, ge=2)  # polls of the same service without an answer (a slow start is fine)
    stall_repeats: int = Field(3, ge=2)  # polls of a job whose answer moved, then stopped moving


class RepeatedErrorsConfig(SpiralDetectorConfig):
    repeats: int = Field(3, ge=2)  # consecutive failing steps with the same error


class StagnationConfig(SpiralDetectorConfig):
    weight: float = Field(0.6, ge=0.0)
    window: int = Field(12, ge=3)
    repeats: int = Field(3, ge=2)  # the same failure this often within the window ...
    patience: int = Field(4, ge=1)  # ... spread over at least this many steps of other work


class MonologueConfig(SpiralDetectorConfig):
    weight: float = Field(0.8, ge=0.0)
    max_silent_turns: int = Field(3, ge=1)  # assistant turns in a row without an action
    self_reference_window: int = Field(5, ge=1)
    self_reference_hits: int = Field(2, ge=1)  # "planning how to plan" this often in the window


class GoalDriftConfig(SpiralDetectorConfig):
    weight: float = Field(0.5, ge=0.0)
    window: int = Field(8, ge=2)
    threshold: float = Field(0.2, ge=0.0, le=1.0)  # mean relevance to the instruction below this


class UnaskedWorkConfig(SpiralDetectorConfig):
    weight: float = Field(0.8, ge=0.0)
    window: int = Field(10, ge=2)  # acting steps looked back
    share: float = Field(0.6, gt=0.0, le=1.0)  # at least this share of them chores the task did not ask for
    kinds: int = Field(3, ge=1)  # ... of at least this many kinds (type checking, CI, Docker, packaging ...)


class SpiralDetectorsConfig(_Strict):
    exact_repetition: ExactRepetitionConfig = Field(default_factory=ExactRepetitionConfig)
    semantic_repetition: SemanticRepetitionConfig = Field(default_factory=SemanticRepetitionConfig)
    alternation: AlternationConfig = Field(default_factory=AlternationConfig)
    repeated_errors: RepeatedErrorsConfig = Field(default_factory=RepeatedErrorsConfig)
    intent_repetition: IntentRepetitionConfig = Field(default_factory=IntentRepetitionConfig)
    parameter_tweak: ParameterTweakConfig = Field(default_factory=ParameterTweakConfig)
    stagnation: StagnationConfig = Field(default_factory=StagnationConfig)
    monologue: MonologueConfig = Field(default_factory=MonologueConfig)
    goal_drift: GoalDriftConfig = Field(default_factory=GoalDriftConfig)
    unasked_work: UnaskedWorkConfig = Field(default_factory=UnaskedWorkConfig)


class SpiralLimitsConfig(_Strict):
    """Hard stops of the monitor, on top of the agent's own limits. None means no limit."""

    max_steps: int | None = Field(None, gt=0)
    max_wall_time_sec: float | None = Field(None, gt=0)
    max_tokens: int | None = Field(None, gt=0)
    max_cost: float | None = Field(None, gt=0)


SpiralAction = Literal["nudge", "restart", "rollback", "escalate", "terminate"]


class SpiralConfig(_Strict):
    """The loop monitor (adaptive_skill/spiral, docs/spiral.md). Detections add weight * score to a
    risk that decays each step; at `threshold` the next rung of `ladder` is taken."""

    enabled: bool = True
    threshold: float = Field(1.0, gt=0.0)
    decay: float = Field(0.6, ge=0.0, lt=1.0)  # share of the risk kept from one step to the next
    cooldown_steps: int = Field(2, ge=1)  # steps the agent gets to react before the next rung
    calm_steps: int = Field(10, ge=1)  # steps without a detection that step the ladder back down
    poll_tolerance: float = Field(2.0, ge=1.0)  # repeat counts stretch this much for commands that wait
    ladder: list[SpiralAction] = Field(
        default_factory=lambda: ["nudge", "restart", "rollback", "escalate", "terminate"], min_length=1)
    detectors: SpiralDetectorsConfig = Field(default_factory=SpiralDetectorsConfig)
    limits: SpiralLimitsConfig = Field(default_factory=SpiralLimitsConfig)
