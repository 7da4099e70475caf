"""One step as every detector sees it: the kernel's StepRecord plus what the monitor worked out
once for all detectors (canonical action, output fingerprint, error line, novelty, embedding).
Whether a step failed is the kernel's one definition (adaptive_skill.trajectory.failures)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from adaptive_skill.spiral import text
from adaptive_skill.spiral.files import FileWrite
from adaptive_skill.spiral.outcome import Measures, measures, result_class
from adaptive_skill.spiral.settings import Setting

if TYPE_CHECKING:
    import numpy as np

    from adaptive_skill.trajectory import Failure, StepRecord

_NO_ACTION = ("format: no tool call", "format: no fenced block")


@dataclass
class StepView:
    index: int
    tool: str | None
    argument: str
    output: str
    exit_code: int | None
    timed_out: bool
    error: str | None
    thought: str
    action_key: str | None  # None: the turn took no action
    output_print: str  # fingerprint of the output (or the error) with volatile parts masked
    failure: Failure | None  # the kernel's verdict on the step
    error_signature: str  # what failed and how, equal for the same failure; "" when not failed
    waits: bool  # the command sleeps or polls on purpose
    novel: bool  # the step showed something not seen in the recent steps
    self_reference: bool = False
    cwd: str | None = None  # the shell's directory as far as the commands tell
    writes: list[FileWrite] = field(default_factory=list)  # files the command writes, as far as it tells
    settings: tuple[Setting, ...] = ()  # the settings it sets: values, numbers, permissions, version pins
    check: str | None = None  # what it runs after its settings (the re-run that shows whether they helped)
    timed: bool = False  # the task is about speed: durations in the output are measures
    vector: np.ndarray | None = None  # embedding of thought + action, when a detector needs it
    totals: dict[str, float] = field(default_factory=dict)  # steps, tokens, cost, elapsed_sec so far

    @cached_property
    def result(self) -> str:
        """Its result's class: the same whatever the numbers in it (outcome.result_class)."""
        if not self.acted:
            return ""
        return result_class(self.failed, self.error_signature, self.output or self.error or "")

    @cached_property
    def measures(self) -> Measures:
        """The numbers of its result whose better direction is known (outcome.measures)."""
        return measures(self.output or self.error or "", self.timed) if self.acted else {}

    @property
    def failed(self) -> bool:
        return self.failure is not None

    @property
    def acted(self) -> bool:
        return self.action_key is not None

    @property
    def intent(self) -> str:
        action = f"{self.tool}: {self.argument}" if self.tool else ""
        return f"{self.thought.strip()}\n{action}".strip()

    def short_action(self, limit: int = 80) -> str:
        if not self.tool:
            return "(no action)"
        first = self.argument.strip().split("\n", 1)[0]
        more = "..." if len(first) > limit or "\n" in self.argument.strip() else ""
        shown = first[:limit] + more
        return shown if self.tool == "bash" else f"{self.tool} {shown}"


def unknown_tool(error: str | None) -> str | None:
    if error and "unknown tool" in error:
        return error.split("unknown tool", 1)[1].split("(")[0].strip(" '\"")
    return None


def took_action(record: StepRecord) -> bool:
    if record.tool is not None:
        return True
    # A refused call to a tool that does not exist is still an attempt to act (and an error).
    return bool(record.error) and not record.error.startswith(_NO_ACTION) and unknown_tool(record.error) is not None


def error_signature(record: StepRecord, action_key: str | None) -> str:
    """What failed and how, equal for the same failure (call it for failed steps only)."""
    if record.timed_out:
        return f"timeout: {action_key}"
    if tool := unknown_tool(record.error):
        return f"unknown tool: {tool}"
    if record.error:
        return f"{record.tool or 'reply'} error: {text.mask_volatile(record.error)[:200]}"
    line = text.error_line(record.output)
    if line:  # a failure is what it says, whatever the exit code (masked, unknown, 1 or 2)
        return f"error: {line}"
    code = record.exit_code if record.exit_known else "unknown"
    # A silent failure says nothing: then only the same command failing again is the same failure.
    return f"exit {code}: {action_key}"
