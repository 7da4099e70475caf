"""A trajectory compressed for a reader with little room (the judge, the evolver).

What is kept, in order: a header with the signal counts; the first commands (the approach); every
error with the command that really caused it (identical failures grouped, never dropped); the
timeouts; repeated commands; spiral events; the last commands (the resolution); the submission.

Steps are paired with their outputs structurally (recorded steps, or tool-call ids and the text
protocol's one-block-per-reply order), never by scanning text for prompts, so a long heredoc
command keeps its own error instead of passing it to the command before it.

To fit the token budget the form gets plainer level by level (shorter outputs, fewer error lines
per entry); then the error entries are cut to their first and last; then the text itself is cut
to its head and tail. The header always carries the full counts, which match `extract_signals`.
A command whose exit code the format does not carry shows `exit unknown`, never `ok`.

The result is never longer than the raw transcript (`raw_text`): when the compressed form would
be (short runs), the raw transcript is returned instead (level `raw`); it holds every error line
right after the command that produced it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from adaptive_skill.observe.signals import Signals, extract_signals
from adaptive_skill.observe.tokens import TokenCounter
from adaptive_skill.trajectory import (
    Failure,
    StepRecord,
    TrajectoryView,
    as_view,
    call_text,
    find_failures,
    message_text,
)
from adaptive_skill.trajectory.text import clip, head_tail, normalize_command, short_command


@dataclass(frozen=True)
class Detail:
    name: str
    approach: int  # first commands shown
    resolution: int  # last commands shown
    command_lines: int  # lines kept at each end of a long command (at least 1)
    output_lines: int  # output tail shown for approach and resolution steps
    error_lines: int  # error lines per error entry
    line_chars: int
    loops: int  # repeated commands listed
    events: int  # spiral events listed one by one


LEVELS = (
    Detail("full", 3, 3, command_lines=2, output_lines=3, error_lines=60, line_chars=240, loops=10, events=20),
    Detail("brief", 3, 3, command_lines=1, output_lines=1, error_lines=4, line_chars=160, loops=5, events=8),
    Detail("minimal", 3, 3, command_lines=1, output_lines=0, error_lines=2, line_chars=120, loops=3, events=3),
    # Errors before context: one command at each end, one line of evidence per error.
    Detail("tight", 1, 1, command_lines=1, output_lines=0, error_lines=1, line_chars=100, loops=1, events=0),
)


@dataclass(frozen=True)
class Compressed:
    text: str
    tokens: int
    raw_tokens: int  # the chat messages as the agent's model saw them
    budget: int
    level: str  # full | brief | minimal | tight | head/tail errors | cut | raw
    n_errors: int  # == extract_signals(...).n_errors
    n_timeouts: int
    errors_shown: int  # error steps whose entry survived the budget
    counter: str  # which token estimate was used

    def stats(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "text"}


@dataclass(frozen=True)
class _Group:
    """Identical failures (same command, kind, exit code and error lines), listed once."""

    failures: tuple[Failure, ...]

    @property
    def first(self) -> Failure:
        return self.failures[0]


def compress(trajectory: Any, budget_tokens: int = 2000, counter: TokenCounter | None = None) -> Compressed:
    """`trajectory`: anything `as_view` accepts. The result fits `budget_tokens` by `counter`."""
    counter = counter or TokenCounter()
    view = as_view(trajectory)
    signals = extract_signals(view)
    failures = find_failures(view.steps)
    errors = _groups([f for f in failures if f.is_error])
    timeouts = _groups([f for f in failures if not f.is_error])
    steps = {s.index: s for s in view.steps}

    raw = raw_text(view)
    raw_tokens = counter.count(raw)

    def result(text: str, level: str, kept: list[_Group]) -> Compressed:
        tokens = counter.count(text)
        if tokens > raw_tokens or len(text) > len(raw):  # compressing made it bigger: the transcript is shorter
            text, level, tokens, kept = raw, "raw", raw_tokens, errors
        return Compressed(text=text, tokens=tokens, raw_tokens=raw_tokens, budget=budget_tokens, level=level,
                          n_errors=signals.n_errors, n_timeouts=signals.n_timeouts,
                          errors_shown=sum(len(g.failures) for g in kept), counter=counter.name)

    for detail in LEVELS:
        text = _render(view, signals, steps, errors, timeouts, detail, errors)
        if counter.count(text) <= budget_tokens:
            return result(text, detail.name, errors)

    # Fewer error entries: the first and the last ones (how it went wrong, where it ended).
    tightest = LEVELS[-1]
    best: tuple[str, list[_Group]] | None = None
    low, high = 0, len(errors) - 1
    while low <= high:
        keep = (low + high) // 2
        kept = _ends(errors, keep)
        text = _render(view, signals, steps, errors, timeouts, tightest, kept)
        if counter.count(text) <= budget_tokens:
            best, low = (text, kept), keep + 1
        else:
            high = keep - 1
    if best is not None:
        return result(best[0], "head/tail errors", best[1])

    text = _cut(_render(view, signals, steps, errors, timeouts, tightest, []), budget_tokens, counter)
    return result(text, "cut", [])


def raw_text(view: TrajectoryView) -> str:
    """The plain transcript: what happened after the task was given, as a model would read it (each
    command right before its output). The agent's system prompt and the instruction are not part of
    it: every reader gets the instruction apart (the judge's "# Task", the evolver's instruction.md),
    and the system prompt is the agent's, not the attempt's (with it, a 6-step run's transcript was
    mostly the seed workspace's prompt, and a compression could be longer than what happened). Its
    last line is how the attempt ended, as the compressed form's Submission section says it: without
    it a run that never acted was an empty record, and a halted or timed-out one read as unfinished."""
    parts = []
    skipped_instruction = False
    for message in view.messages:
        role = message.get("role")
        if role == "system":
            continue
        if role == "user" and not skipped_instruction:
            skipped_instruction = True
            continue
        parts.append(f"{role}: {message_text(message.get('content'))}")
        for call in message.get("tool_calls") or []:
            name, argument = call_text(call)
            parts.append(f"call {name}: {argument}")
    parts.append(f"(the attempt ended with status {view.status or 'unknown'})")
    return "\n".join(parts)


# -- rendering ---------------------------------------------------------------------------------

def _render(view: TrajectoryView, signals: Signals, steps: dict[int, StepRecord], errors: list[_Group],
            timeouts: list[_Group], detail: Detail, shown_errors: list[_Group]) -> str:
    out = [_header(signals)]
    actions = [s for s in view.steps if s.tool is not None and s.tool != "submit"]
    approach = actions[:detail.approach]
    resolution = actions[len(approach):][-detail.resolution:]
    failed = {f.step: f for g in [*errors, *timeouts] for f in g.failures}

    out.append(f"\n## Approach (first {_count(len(approach), 'command')})")
    out += [line for s in approach for line in _step_lines(s, detail, failed.get(s.index))] or ["(no command ran)"]

    if errors:
        out.append(f"\n## Errors ({signals.n_errors})")
        out += _group_lines(errors, shown_errors, steps, detail)
    if timeouts:
        out.append(f"\n## Timeouts ({signals.n_timeouts})")
        out += _group_lines(timeouts, timeouts, steps, detail)
    if signals.repeated_commands:
        out.append("\n## Repeated commands")
        for loop in signals.repeated_commands[:detail.loops]:
            first, *rest = loop["command"].splitlines() or [""]
            more = f" [+{len(rest)} lines]" if rest else ""
            out.append(f"- x{loop['count']} $ {clip(first, detail.line_chars)}{more} (steps "
                       f"{_step_list(loop['steps'])})")
        if len(signals.repeated_commands) > detail.loops:
            out.append(f"- [... {len(signals.repeated_commands) - detail.loops} more repeated commands ...]")
    if view.events:
        summary = signals.spiral_events
        out.append(f"\n## Spiral events ({summary['count']})")
        lines = [_event_line(e, detail) for e in view.events]
        out += head_tail(lines, detail.events, "events") if detail.events else []
        if summary["count"] > detail.events:
            out.append("- by detector: " + ", ".join(f"{k} x{v}" for k, v in summary["by_detector"].items()))
    if resolution:
        out.append(f"\n## Resolution (last {_count(len(resolution), 'command')})")
        out += [line for s in resolution for line in _step_lines(s, detail, failed.get(s.index))]
    out.append("\n## Submission")
    if signals.submit_value is not None:
        out.append(clip(" ".join(signals.submit_value.split()) or "(empty)", 4 * detail.line_chars))
    else:
        out.append(f"(none; the attempt ended with status {view.status or 'unknown'})")
    return "\n".join(out).strip() + "\n"


def _header(signals: Signals) -> str:
    return (f"Trajectory: status {signals.status or 'unknown'}; {signals.n_turns} turns, "
            f"{signals.n_tool_calls} tool calls, {signals.n_errors} errors, {signals.n_timeouts} timeouts, "
            f"{signals.spiral_events['count']} spiral events")


def _step_lines(step: StepRecord, detail: Detail, failure: Failure | None) -> list[str]:
    if failure is not None:  # the command in full and its evidence are in Errors or Timeouts
        first = (step.argument.strip().splitlines() or [""])[0]
        more = " [...]" if step.tool == "bash" and "\n" in step.argument.strip() else ""
        label = f"step {step.index} $ " if step.tool == "bash" else f"step {step.index} {step.tool or ''} "
        section = "Errors" if failure.is_error else "Timeouts"
        return [f"{label}{clip(first, detail.line_chars // 2)}{more}".rstrip()
                if step.tool is not None else f"step {step.index} (malformed reply)",
                f"  -> {failure.status} (see {section})"]
    lines = _command_lines(step, f"step {step.index}", detail)
    status = f"exit {step.exit_code}" if step.exit_known else "exit unknown"
    lines.append(f"  -> {status}" if step.tool == "bash" else "  -> ok")
    if step.tool == "bash" and detail.output_lines:
        tail = [line for line in (step.output or "").splitlines() if line.strip()][-detail.output_lines:]
        lines += [f"  | {clip(line.rstrip(), detail.line_chars)}" for line in tail]
    return lines


def _command_lines(step: StepRecord, label: str, detail: Detail) -> list[str]:
    if step.tool is None:
        return [f"{label} (malformed reply)"]
    if step.tool != "bash":
        return [f"{label} {step.tool} {clip(' '.join(step.argument.split()), detail.line_chars)}"]
    first, *rest = short_command(step.argument, detail.command_lines, detail.line_chars).splitlines() or [""]
    pad = " " * (len(label) + 3)
    return [f"{label} $ {first}", *(pad + line for line in rest)]


def _group_lines(groups: list[_Group], shown: list[_Group], steps: dict[int, StepRecord],
                 detail: Detail) -> list[str]:
    lines: list[str] = []
    shown_ids = {id(g) for g in shown}
    skipped: list[_Group] = []
    for group in groups:
        if id(group) not in shown_ids:
            skipped.append(group)
            continue
        if skipped:
            lines.append(_omitted(skipped))
            skipped = []
        numbers = [f.step for f in group.failures]
        label = (f"step {numbers[0]}" if len(numbers) == 1
                 else f"steps {_step_list(numbers)} (x{len(numbers)})")
        lines += _command_lines(steps[group.first.step], label, detail)
        lines.append(f"  -> {group.first.status}")
        evidence = [clip(line, detail.line_chars) for line in group.first.lines]
        lines += [f"  | {line}" for line in head_tail(evidence, detail.error_lines, "error lines")]
    if skipped:
        lines.append(_omitted(skipped))
    return lines


def _omitted(groups: list[_Group]) -> str:
    numbers = [f.step for g in groups for f in g.failures]
    return f"[... {len(numbers)} more errors omitted to fit the budget (steps {_step_list(numbers)}) ...]"


def _event_line(event: dict[str, Any], detail: Detail) -> str:
    score = event.get("score")
    score_text = f" (score {score:.2f})" if isinstance(score, int | float) else ""
    evidence = event.get("evidence")
    evidence_text = ""
    if evidence and detail.name == "full":
        evidence_text = ": " + clip(json.dumps(evidence, ensure_ascii=False, default=str), detail.line_chars)
    return (f"- step {event.get('step', '?')}: {event.get('detector', '?')} -> {event.get('action', '?')}"
            f"{score_text}{evidence_text}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _step_list(numbers: list[int]) -> str:
    if len(numbers) <= 8:
        return ", ".join(map(str, numbers))
    return f"{', '.join(map(str, numbers[:4]))}, ..., {', '.join(map(str, numbers[-3:]))}"


# -- budget helpers ----------------------------------------------------------------------------

def _groups(failures: list[Failure]) -> list[_Group]:
    grouped: dict[tuple[Any, ...], list[Failure]] = {}
    for failure in failures:
        key = (normalize_command(failure.command), failure.tool, failure.kind, failure.exit_code, failure.lines)
        grouped.setdefault(key, []).append(failure)
    return [_Group(tuple(members)) for members in grouped.values()]


def _ends(groups: list[_Group], keep: int) -> list[_Group]:
    head = (keep + 1) // 2
    return [*groups[:head], *(groups[len(groups) - (keep - head):] if keep - head else [])]


def _cut(text: str, budget: int, counter: TokenCounter) -> str:
    """The text's first lines (two thirds of the budget) and last lines (the rest)."""
    lines = text.splitlines()
    marker = "[... {n} lines cut to fit the token budget ...]"
    room = max(0, budget - counter.count(marker) - 2)
    head: list[str] = []
    used = 0
    for line in lines:
        cost = counter.count(line) + 1
        if used + cost > room * 2 // 3:
            break
        head.append(line)
        used += cost
    tail: list[str] = []
    for line in reversed(lines[len(head):]):
        cost = counter.count(line) + 1
        if used + cost > room:
            break
        tail.insert(0, line)
        used += cost
    cut = len(lines) - len(head) - len(tail)
    if cut == 0:
        return text
    return "\n".join([*head, marker.format(n=cut), *tail]) + "\n"
