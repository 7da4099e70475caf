"""Unasked work: the run slides from its task into chores nobody asked for, each step healthy
in itself: type checking, linting, CI and hooks, Docker, packaging and layout, docs, logging
setup, rewrites (spiral/chores.py). Most of the last `window` acting steps are such chores, of at
least `kinds` kinds, and the instruction asks for none of each step's kinds: `mypy` over the very
module the task is about is still tooling nobody asked for, while a TypeScript conversion with
eslint and prettier is the task's work when the instruction asks for it. Formatting and lint
fixes alone (two kinds) are what a CI check may demand, and stay quiet."""

from __future__ import annotations

from adaptive_skill.config import UnaskedWorkConfig
from adaptive_skill.spiral.chores import chores
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.steps import StepView


class UnaskedWork:
    name = "unasked_work"

    def __init__(self, config: UnaskedWorkConfig, instruction: str):
        self.config = config
        self.asked = chores(instruction)  # the chores the task itself asks for
        self.recent: list[tuple[int, frozenset[str], str]] = []  # (step, unasked chores, what it did) of acting steps

    def feed(self, step: StepView, history: History) -> Detection | None:
        if not step.acted:
            return None
        # the thought and the command's first line: a here-document's body is the file, not the work named
        named = chores(f"{step.thought[:600]}\n{step.argument.lstrip().split(chr(10), 1)[0][:300]}") \
            if step.tool == "bash" else frozenset()
        unasked = named if not named & self.asked else frozenset()
        self.recent = [*self.recent, (step.index, unasked, step.short_action(50))][-self.config.window:]
        off = [(i, c, a) for i, c, a in self.recent if c]
        kinds = sorted({kind for _, c, _ in off for kind in c})
        share = len(off) / self.config.window
        if not unasked or len(self.recent) < self.config.window or share < self.config.share \
                or len(kinds) < self.config.kinds:
            return None
        return Detection(self.name, min(2.0, share / self.config.share),
                         f"{len(off)} of your last {len(self.recent)} steps were work the task did not ask for "
                         f"({', '.join(kinds)})",
                         {"chores": kinds, "steps": [i for i, _, _ in off], "commands": [a for _, _, a in off][-5:],
                          "asked": sorted(self.asked)},
                         span_start=off[0][0])
