"""Alternation: A,B,A,B... over actions and their results; a file flipping between the same
versions (edit, revert, edit again), whatever tool made the edits; or one setting flipping between
two values (a value written in place, a version pinned by an installer or in a manifest).

Files and settings count only while nothing is learnt: the check run after each version gives the
same result every time the version comes back (`TimeoutError` with 5, a stale count with 30). A
flip whose results change (both versions tried while fixing the code in between) is progress."""

from __future__ import annotations

from adaptive_skill.config import AlternationConfig
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.files import FileVersions
from adaptive_skill.spiral.settings import same_version
from adaptive_skill.spiral.steps import StepView
from adaptive_skill.trajectory.text import normalize_path

_FRESH = 3  # steps between a change and the check that shows its result


def _periodic(items: list, period: int, cycles: int) -> bool:
    """The last period*cycles items repeat with this period, and the period holds distinct items."""
    length = period * cycles
    if len(items) < length:
        return False
    tail = items[-length:]
    return len(set(tail[:period])) == period and all(tail[i] == tail[i - period] for i in range(period, length))


class Alternation:
    name = "alternation"

    def __init__(self, config: AlternationConfig):
        self.config = config
        self.files = FileVersions()
        self.values: dict[str, list[tuple[int, str, bool]]] = {}  # setting -> (step, value, before that step)
        self.before: dict[int, str] = {}  # step of a change -> the result of the last check before it
        self.after: dict[int, str] = {}  # step of a change -> the result of the first check after it
        self.waiting: list[int] = []  # changes whose check has not run yet
        self.last_result = ""

    def feed(self, step: StepView, history: History) -> Detection | None:
        changed = self._record(step)
        if step.check is not None and step.acted:
            for change in self.waiting:
                self.after[change] = step.result
            self.waiting = []
            self.last_result = step.result
        if changed and step.check is None:
            return self._actions(step, history)
        return self._files(step) or self._values(step) or self._actions(step, history)

    # -- what changed, and the results around it ---------------------------------------------------

    def _record(self, step: StepView) -> bool:
        if step.tool != "bash" or not (step.writes or step.settings):
            return False
        self.before[step.index] = self.last_result
        self.waiting.append(step.index)
        for write in step.writes:
            self.files.apply(step.index, write, normalize_path(write.path, step.cwd))
        for setting in step.settings:
            history = self.values.setdefault(setting.key, [])
            value, previous = self._canonical(setting, setting.value, history), setting.previous
            if not history and previous is not None and previous != value:
                history.append((step.index, self._canonical(setting, previous, history), True))  # as it was before
            if not history or history[-1][1] != value:
                history.append((step.index, value, False))
                del history[:-4 * self.config.file_cycles]
        for old in [s for s in self.before if s < step.index - 64]:
            self.before.pop(old, None)
            self.after.pop(old, None)
        return True

    @staticmethod
    def _canonical(setting, value: str, history: list[tuple[int, str, bool]]) -> str:
        if setting.kind == "pin":  # `^3` and `3.6.0` are one version
            return next((v for _, v, _ in reversed(history) if same_version(v, value)), value)
        return value

    def _looping(self, states: list[tuple[int, str, str | None]]) -> list[tuple[int, str, str | None]] | None:
        """The last 2 x file_cycles states flip between two, and each state's check result is the
        same every time it comes back (all of them known)."""
        length = 2 * self.config.file_cycles
        if not _periodic([state for _, state, _ in states], 2, self.config.file_cycles):
            return None
        loop = states[-length:]
        results = [result for _, _, result in loop]
        if any(result is None for result in results) or not all(results[i] == results[i - 2] for i in range(2, length)):
            return None
        return loop

    def _result(self, step: int, pseudo: bool) -> str | None:
        return self.before.get(step) if pseudo else self.after.get(step)

    # -- the three kinds ----------------------------------------------------------------------------

    def _files(self, step: StepView) -> Detection | None:
        for path, history in self.files.history.items():
            if not history or step.index - history[-1][0] > _FRESH:
                continue  # a loop is reported when its last version is checked: recent files only
            versions = self.files.versions(path)
            states, previous = [], None
            for position, (at, version) in enumerate(versions):
                pseudo = position + 1 < len(versions) and versions[position + 1][0] == at
                if version != previous:
                    states.append((at, version, self._result(at, pseudo)))
                    previous = version
            loop = self._looping(states)
            if loop is not None and self._fresh(loop, step):
                return Detection(self.name, 1.0,
                                 f"you keep changing {path} back and forth between the same two versions, and the "
                                 f"check after each gives the same result",
                                 {"kind": "file", "file": path, "steps": sorted({s for s, _, _ in loop if s >= 0}),
                                  "results": _shown([r for _, _, r in loop[:2]])},
                                 span_start=max(loop[0][0], 1))
        return None

    def _values(self, step: StepView) -> Detection | None:
        for key, history in self.values.items():
            if not history or step.index - history[-1][0] > _FRESH:
                continue
            states = [(at, value, self._result(at, pseudo)) for at, value, pseudo in history]
            loop = self._looping(states)
            if loop is None or not self._fresh(loop, step):
                continue
            shown = " and ".join(dict.fromkeys(v for _, v, _ in loop))
            what = key.removeprefix("pin:").removeprefix("perm:").removeprefix("num:")
            return Detection(self.name, 1.0, f"you keep setting {what} back and forth between {shown}, and the "
                                             f"check after each gives the same result",
                             {"kind": "value", "name": key, "values": [v for _, v, _ in loop],
                              "steps": [s for s, _, _ in loop], "results": _shown([r for _, _, r in loop[:2]])},
                             span_start=loop[0][0])
        return None

    def _fresh(self, loop: list[tuple[int, str, str | None]], step: StepView) -> bool:
        """The loop's last state was just checked, by this step (its result is the loop's)."""
        return step.check is not None and 0 <= step.index - loop[-1][0] <= _FRESH and step.result == loop[-1][2]

    def _actions(self, step: StepView, history: History) -> Detection | None:
        if not step.acted:
            return None
        window = history.recent(self.config.max_period * self.config.cycles)
        keys = [(s.action_key, s.output_print) for s in window]
        for period in range(2, self.config.max_period + 1):
            if _periodic(keys, period, self.config.cycles):
                loop = window[-period * self.config.cycles:]
                actions = [s.short_action(50) for s in loop[:period]]
                return Detection(self.name, 1.0,
                                 f"you are alternating between {' and '.join(f'`{a}`' for a in actions)} "
                                 f"with the same results ({self.config.cycles} rounds)",
                                 {"kind": "actions", "period": period, "actions": actions,
                                  "steps": [s.index for s in loop]},
                                 span_start=loop[0].index)
        return None


def _shown(results: list[str | None]) -> list[str]:
    return [(r or "")[:160] for r in results]
