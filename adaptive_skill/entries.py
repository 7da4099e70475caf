"""The entries of a distilled skill: what the distilling evolver writes (evolve/distill.py) and what
the skill in the prompt reads back to decide where it is placed (agent/inline.py).

A distilled body opens with `## Steps` and INTRO; each entry is a numbered line, the first sentence
of a passed task's instruction, followed by up to three indented commands in backticks. Since
2026-12-06 the frontmatter's `metadata` also holds, per entry, that task's instruction on one line
(`entry-<number>-task`, at most TASK_CHARS): the first sentence alone did not tell a task's own
family from its neighbours (benchmarks/perf/bench_placement.py). A skill is untrusted text, written
by an evolver: reading it looks at most MAX_LINES lines and MAX_ENTRIES entries, takes only string
values, and cuts each to TASK_CHARS.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

INTRO = "Commands that did tasks of this kind (the paths are those tasks'; use your task's paths):"
TASK_KEY = "entry-{}-task"  # metadata key of entry <number>'s task instruction
INSTRUCTION_CHARS = 110  # an entry's line: its task's first sentence, at most this long
TASK_CHARS = 400  # the family suite's instructions are at most 457 characters; 300 separated as well
MAX_ENTRIES = 64
MAX_LINES = 2000
ENTRY = re.compile(r"^(\d{1,4})\. (\S.*)$")
COMMAND = re.compile(r"^ {3}`([^`]+)`$")
_PRINTABLE = re.compile(r"[^\x20-\x7e\u00a0-\uffff]")


def one_line(text: str, limit: int = TASK_CHARS) -> str:
    """`text` on one printable line, at most `limit` characters, cut at its last whole word."""
    text = " ".join(_PRINTABLE.sub(" ", text[:limit * 4]).split())
    if len(text) <= limit:
        return text
    head = text[:limit]
    return (head.rsplit(" ", 1)[0] if " " in head and text[limit] != " " else head).rstrip()


def is_distilled(body: str) -> bool:
    """Whether a skill's body is the distilling evolver's: its steps open with INTRO."""
    return isinstance(body, str) and body.lstrip("\n").startswith(f"## Steps\n{INTRO}\n")


def entry_tasks(frontmatter: Mapping[str, Any], lines: list[str]) -> list[str] | None:
    """The task text of each entry among `lines` (a distilled body's, or the part of it that is
    placed): its `entry-<number>-task` from the frontmatter's metadata, else its first sentence from
    the body. None when no entry among them has a stored task text (a skill distilled before
    2026-12-06, or one not distilled: placement then ranks it as before). An entry counts only with at
    least one command line under it."""
    metadata = frontmatter.get("metadata") if isinstance(frontmatter, Mapping) else None
    metadata = metadata if isinstance(metadata, Mapping) else {}
    found: list[tuple[str, str]] = []  # (number, sentence) of entries with a command
    pending: tuple[str, str] | None = None
    for line in lines[:MAX_LINES]:
        if not isinstance(line, str):
            continue
        if entry := ENTRY.match(line[:TASK_CHARS + 10]):
            pending = (entry.group(1), entry.group(2))
        elif pending is not None and COMMAND.match(line[:400]):
            found.append(pending)
            pending = None
            if len(found) >= MAX_ENTRIES:
                break
    stored = False
    tasks = []
    for number, sentence in found:
        value = metadata.get(TASK_KEY.format(int(number)))
        text = one_line(value) if isinstance(value, str) else ""
        stored = stored or bool(text)
        tasks.append(text or one_line(sentence))
    return tasks if stored else None


def first_sentence(text: str) -> str:
    """The first sentence of an instruction, on one printable line, at most INSTRUCTION_CHARS: a longer
    one ends at its last whole word, with "...", never in the middle of a path or a code span."""
    text = printable_line(text)
    cut = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    if len(cut) <= INSTRUCTION_CHARS:
        return cut
    head = cut[:INSTRUCTION_CHARS - 3]
    if " " in head and cut[INSTRUCTION_CHARS - 3] != " ":
        head = head.rsplit(" ", 1)[0]
    if head.count("`") % 2:  # a code span left open (`Release 1.0` cut between its words): end before it
        head = head[:head.rindex("`")]
    return head.rstrip() + "..."


def printable_line(text: str) -> str:
    """`text` on one line of printable characters, runs of white space one space."""
    return " ".join(_PRINTABLE.sub(" ", text).split())
