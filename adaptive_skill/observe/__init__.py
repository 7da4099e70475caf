"""Observe: what an agent did, read from its trajectory alone (no labels).

signals.extract_signals   counts and facts (errors, timeouts, loops, submission, spiral events)
compress.compress         the trajectory cut to a token budget for the judge and the evolver
judge.Judge               an LLM's label-free estimate of success, cached, in parallel
calibration.calibrate     judge vs verifier labels, for the per-cycle report only
"""

from adaptive_skill.observe.calibration import auroc, calibrate, calibrate_results
from adaptive_skill.observe.compress import Compressed, compress
from adaptive_skill.observe.judge import Judge, JudgeFailure, JudgeItem, JudgeResult, Verdict, judge_report
from adaptive_skill.observe.signals import Signals, extract_signals
from adaptive_skill.observe.tokens import TokenCounter
from adaptive_skill.observe.view import TrajectoryFileError, TrajectoryView, as_view, load_view

__all__ = ["Compressed", "Judge", "JudgeFailure", "JudgeItem", "JudgeResult", "Signals", "TokenCounter",
           "TrajectoryFileError", "TrajectoryView", "Verdict", "as_view", "auroc", "calibrate", "calibrate_results",
           "compress", "extract_signals", "judge_report", "load_view"]
