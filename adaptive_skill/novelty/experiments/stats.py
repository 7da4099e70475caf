"""Percentile bootstrap intervals. Seeded, so the same data always gives the same interval; the
experiments are small (a handful of runs per condition), which is why intervals, not p-values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    mean: float | None  # None when there is no data
    low: float | None
    high: float | None
    n: int

    @property
    def excludes_zero(self) -> bool:
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def to_dict(self) -> dict[str, object]:
        return {"mean": _round(self.mean), "low": _round(self.low), "high": _round(self.high), "n": self.n}


def bootstrap_mean(values: Sequence[float], *, seed: int = 0, resamples: int = RESAMPLES,
                   level: float = LEVEL) -> Interval:
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return Interval(None, None, None, 0)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = _percentiles(means, level)
    return Interval(_clean(data.mean()), low, high, int(data.size))


def bootstrap_difference(values: Sequence[float], baseline: Sequence[float], *, seed: int = 0,
                         resamples: int = RESAMPLES, level: float = LEVEL) -> Interval:
    """mean(values) - mean(baseline), each group resampled on its own (independent samples)."""
    a, b = np.asarray(values, dtype=np.float64), np.asarray(baseline, dtype=np.float64)
    if a.size == 0 or b.size == 0:
        return Interval(None, None, None, 0)
    rng = np.random.default_rng(seed)
    diffs = (a[rng.integers(0, a.size, size=(resamples, a.size))].mean(axis=1)
             - b[rng.integers(0, b.size, size=(resamples, b.size))].mean(axis=1))
    low, high = _percentiles(diffs, level)
    return Interval(_clean(a.mean() - b.mean()), low, high, int(min(a.size, b.size)))


def _percentiles(samples: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    return _clean(low), _clean(high)


def _clean(value: float) -> float:
    """Float noise (1e-17 where the truth is 0) must not make an interval exclude zero."""
    return round(float(value), 12) + 0.0  # + 0.0 turns -0.0 into 0.0


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
