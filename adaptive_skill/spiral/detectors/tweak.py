"""Parameter tweaking: the same check re-run after each tweak of a setting (a sleep, a permission,
a formatter option, a chunk size, or a number in the check's own options: `-timeout 30s`, then
`-timeout 1m`), and its result stays of the same class while the numbers in it
do not improve, however they jitter (19.7 s, 19.5 s, 20.1 s; 4, 2, 7 files to reformat). A real
edit between the runs (code written, not a value changed) starts the count again; so does a result
of another class (the check passes, or fails differently) and a measure that improves (fewer
failures, a shorter time when the task is about speed)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from adaptive_skill.config import ParameterTweakConfig
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.outcome import Measures, best_of, improves
from adaptive_skill.spiral.steps import StepView


@dataclass
class _Run:
    view: StepView
    tweaked: bool  # a setting changed since the check's previous run
    settings: tuple[str, ...]  # what changed, as `key=value`

    @property
    def step(self) -> int:
        return self.view.index

    @property
    def result(self) -> str:
        return self.view.result

    @property
    def measures(self) -> Measures:  # read only when a streak is long enough to matter
        return self.view.measures


class ParameterTweak:
    name = "parameter_tweak"

    def __init__(self, config: ParameterTweakConfig):
        self.config = config
        self.runs: dict[str, list[_Run]] = {}  # check -> its runs, oldest first
        self.tweaks: list[tuple[int, str]] = []  # (step, `key=value`) of each setting changed
        self.edits: list[int] = []  # steps that wrote files without setting anything: real work

    def feed(self, step: StepView, history: History) -> Detection | None:
        if step.tool != "bash" or not step.acted:
            return None
        self.tweaks += [(step.index, f"{s.key.removeprefix('num:')}={s.value}") for s in step.settings]
        if step.writes and not step.settings:
            self.edits.append(step.index)
        horizon = step.index - self.config.window
        self.tweaks = [t for t in self.tweaks if t[0] > horizon]
        self.edits = [e for e in self.edits if e > horizon]
        if step.check is None:
            return None
        check = _NUMBERS.sub("<n>", step.check)  # `go test -timeout 30s` and `-timeout 1m` are one check
        runs = [r for r in self.runs.get(check, []) if r.step > horizon]
        since = runs[-1].step if runs else horizon
        if any(since < e <= step.index for e in self.edits):
            runs = []  # the code changed: a new story
        changed = tuple(t for s, t in self.tweaks if since < s <= step.index)
        if runs and runs[-1].view.check != step.check:  # the check's own options changed: a tweak too
            changed += (f"options={_options(runs[-1].view.check or '', step.check)}",)
        runs.append(_Run(step, bool(changed), changed))
        self.runs[check] = runs
        same = self._same_result(runs)
        if sum(r.tweaked for r in same[1:]) < self.config.rounds:
            return None
        streak = self._since_improved(same)
        tweaked = [r for r in streak[1:] if r.tweaked]
        if len(tweaked) < self.config.rounds:
            return None
        settings = list(dict.fromkeys(t for r in tweaked for t in r.settings))
        return Detection(self.name, min(2.0, len(tweaked) / self.config.rounds),
                         f"you changed {_names(settings)} {len(tweaked)} times and re-ran "
                         f"`{step.check[:60]}`, and its result did not get better",
                         {"check": step.check[:200], "count": len(tweaked), "settings": settings[:8],
                          "result": streak[-1].result[:200], "steps": [r.step for r in streak],
                          "measures": {k: [r.measures[k][0] for r in streak if k in r.measures]
                                       for k in streak[-1].measures}},
                         span_start=streak[1].step)

    @staticmethod
    def _same_result(runs: list[_Run]) -> list[_Run]:
        """The last runs with the result's class of the last one."""
        streak: list[_Run] = []
        for run in reversed(runs):
            if run.result != runs[-1].result:
                break
            streak.insert(0, run)
        return streak

    @staticmethod
    def _since_improved(streak: list[_Run]) -> list[_Run]:
        """The runs since the measures last improved."""
        start = 0
        for i in range(1, len(streak)):
            if improves(streak[i].measures, best_of([r.measures for r in streak[:i]])):
                start = i
        return streak[start:]


_NUMBERS = re.compile(r"\b\d+(?:\.\d+)?[a-zA-Z]{0,3}\b")  # 30s, 1m, 0.5, 4096


def _options(before: str, after: str) -> str:
    """The words of a re-run command that changed: `-timeout 30s` to `-timeout 1m`."""
    old = set(before.split())
    return " ".join(w for w in after.split() if w not in old)[:60] or "-"


def _names(settings: list[str]) -> str:
    names = list(dict.fromkeys(s.split("=", 1)[0].removeprefix("perm:").removeprefix("pin:") for s in settings))
    return ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")
