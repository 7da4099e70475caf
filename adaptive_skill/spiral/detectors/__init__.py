"""The spiral detectors: small classes fed one step at a time, each reporting a Detection when its
configured condition is met."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adaptive_skill.spiral.detectors.base import Detection, Detector, History

if TYPE_CHECKING:
    import numpy as np

    from adaptive_skill.config import SpiralConfig
    from adaptive_skill.protocols import Embedder


def build_detectors(config: SpiralConfig, instruction: str, instruction_vector: np.ndarray | None,
                    embedder: Embedder | None = None) -> list[Detector]:
    """The enabled detectors, hard limits first (they end the attempt whatever else is seen)."""
    from adaptive_skill.spiral.detectors.alternation import Alternation
    from adaptive_skill.spiral.detectors.chores import UnaskedWork
    from adaptive_skill.spiral.detectors.drift import GoalDrift
    from adaptive_skill.spiral.detectors.errors import RepeatedErrors
    from adaptive_skill.spiral.detectors.intent import IntentRepetition
    from adaptive_skill.spiral.detectors.limits import HardLimits
    from adaptive_skill.spiral.detectors.monologue import Monologue
    from adaptive_skill.spiral.detectors.repetition import ExactRepetition, SemanticRepetition
    from adaptive_skill.spiral.detectors.stagnation import Stagnation
    from adaptive_skill.spiral.detectors.tweak import ParameterTweak

    d, tolerance = config.detectors, config.poll_tolerance
    candidates: list[tuple[bool, Detector]] = [
        (True, HardLimits(config.limits)),
        (d.exact_repetition.enabled, ExactRepetition(d.exact_repetition, tolerance)),
        (d.semantic_repetition.enabled and embedder is not None,
         SemanticRepetition(d.semantic_repetition, tolerance, getattr(embedder, "paraphrase_similarity", 0.8))),
        (d.alternation.enabled, Alternation(d.alternation)),
        (d.repeated_errors.enabled, RepeatedErrors(d.repeated_errors, tolerance)),
        (d.intent_repetition.enabled, IntentRepetition(d.intent_repetition)),
        (d.parameter_tweak.enabled, ParameterTweak(d.parameter_tweak)),
        (d.stagnation.enabled, Stagnation(d.stagnation, tolerance)),
        (d.monologue.enabled, Monologue(d.monologue)),
        (d.goal_drift.enabled, GoalDrift(d.goal_drift, instruction, instruction_vector)),
        (d.unasked_work.enabled, UnaskedWork(d.unasked_work, instruction)),
    ]
    return [detector for enabled, detector in candidates if enabled]


def weight_of(config: SpiralConfig, detector: str) -> float:
    settings = getattr(config.detectors, detector, None)
    return settings.weight if settings is not None else 1.0


__all__ = ["Detection", "Detector", "History", "build_detectors", "weight_of"]
