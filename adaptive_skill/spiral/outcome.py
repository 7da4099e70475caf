"""What a step's result amounts to when the same check is run again: its class, the same whatever
the numbers in it (a failure's signature, or a success's output, with every number masked), and
its measures, the numbers whose better direction is known (failures, errors, warnings and files
that differ fall as things improve; passes and throughput rise; durations fall, counted only when
the task is about speed, since elsewhere they are noise). A tuning loop whose metric improves makes
progress; the same class with numbers that do not improve is a loop however the numbers jitter."""

from __future__ import annotations

import hashlib
import re

from adaptive_skill.spiral.text import head_tail
from adaptive_skill.trajectory.text import clean_output, mask_volatile

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_SPACE = re.compile(r"\s+")
# (pattern with the number as group 1, label, direction): -1 lower is better, +1 higher is better
_MEASURES = [
    (re.compile(r"(\d+)\s+(?:failed|failures?|errors?|warnings?|problems?)\b", re.IGNORECASE), "failures", -1),
    (re.compile(r"\bfound in (\d+) files?\b|\b(\d+) files? (?:differ|would be reformatted|changed)\b"), "differ", -1),
    (re.compile(r"(\d+)\s+passed\b"), "passed", 1),
    (re.compile(r"(\d+(?:\.\d+)?)\s?(?:req|rows|ops|items|it|images|records|requests)/s\b"), "rate", 1),
    (re.compile(r"\b(?:accuracy|score|f1|auc)\W{0,3}(\d+(?:\.\d+)?)", re.IGNORECASE), "score", 1),
    (re.compile(r"(\d+(?:\.\d+)?)%\s*(?:coverage|covered)|coverage\W{0,3}(\d+(?:\.\d+)?)%", re.IGNORECASE),
     "coverage", 1),
]
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s?(ms|s|sec|secs|seconds?|min|minutes?)\b")
_SCALE = {"ms": 0.001, "min": 60.0, "minute": 60.0, "minutes": 60.0}
_TIME_GOAL = re.compile(r"\b(?:faster|speed\s*up|slow(?:er|ness)?|latency|throughput|performance|"
                        r"(?:under|below|within|less than|at most)\s+\d+(?:\.\d+)?\s*"
                        r"(?:ms|s|sec\w*|seconds?|minutes?))\b", re.IGNORECASE)
Measures = dict[str, tuple[float, int]]  # label -> (value, direction)


def time_goal(instruction: str) -> bool:
    """The task is about speed: then the durations in outputs are its measure, not noise."""
    return bool(_TIME_GOAL.search(instruction or ""))


def result_class(failed: bool, signature: str, output: str) -> str:
    if failed:
        return "fail:" + _NUMBER.sub("<n>", signature)
    text = _SPACE.sub(" ", _NUMBER.sub("<n>", mask_volatile(head_tail(clean_output(output), 1000))))
    return "ok:" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def measures(output: str, durations: bool) -> Measures:
    text = head_tail(clean_output(output), 1000)  # tallies and timings are at the start or the end
    found: Measures = {}
    for pattern, label, direction in _MEASURES:
        for k, match in enumerate(pattern.finditer(text)):
            value = next(g for g in match.groups() if g is not None)
            found[f"{label}#{k}"] = (float(value), direction)
    if durations:
        for k, match in enumerate(_DURATION.finditer(text)):
            found[f"seconds#{k}"] = (float(match.group(1)) * _SCALE.get(match.group(2), 1.0), -1)
    return found


def improves(now: Measures, best: dict[str, float], tolerance: float = 0.03) -> bool:
    """Some measure is better than the best seen before by more than `tolerance` (relative)."""
    for label, (value, direction) in now.items():
        if label not in best:
            continue
        previous = best[label]
        margin = max(abs(previous) * tolerance, 1e-9)
        if (direction < 0 and value < previous - margin) or (direction > 0 and value > previous + margin):
            return True
    return False


def best_of(runs: list[Measures]) -> dict[str, float]:
    best: dict[str, float] = {}
    for run in runs:
        for label, (value, direction) in run.items():
            if label not in best or (value - best[label]) * direction > 0:
                best[label] = value
    return best
