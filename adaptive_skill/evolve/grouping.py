"""Which passed attempts make one distilled skill where the suite declares no families
(evolver.group: similar): the entries of one category split by how alike their tasks are, so that a
skill is one kind of work's recipe and the gate per skill can drop a wrong recipe without its
neighbours (issue 66).

Two attempts are compared by the mean of two Dice overlaps (tasks/families.py): of their
instructions' words, as the skill in the prompt compares a task with an entry, and of their worked
commands' programs, flags and keywords, with every quoted value, path and number masked in both. The
words alone split the suite's families, whose instances are worded apart on purpose; the commands
alone join families that share a program. An attempt joins the existing skill of its category whose
entries are, on average, at `threshold` or closer to it; the others of a category are grouped by
average link (the two closest groups merged while their mean pairwise similarity is at `threshold`
or above). A new group is named after its category and the two instruction words that most set it
apart from the rest of the batch. Measured against the family suite's declared families:
benchmarks/perf/bench_grouping.py (threshold 0.5: 288 groups for 275 families over 11 splits, 285
of them one family's).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from adaptive_skill.skills import CATEGORY_CHARS, category_key
from adaptive_skill.tasks.families import command_words, dice, instruction_words

THRESHOLD = 0.5  # see benchmarks/perf/bench_grouping.py
_PLACEHOLDERS = frozenset({"v", "n"})  # what instruction_words puts for a masked value and a number


@dataclass(frozen=True)
class Item:
    """One passed attempt to group: its category (a category_key), its task's instruction and its
    worked commands."""

    category: str
    instruction: str
    commands: tuple[str, ...] = ()

    def words(self) -> tuple[list[str], list[str]]:
        return instruction_words(self.instruction), command_words("\n".join(self.commands), self.instruction)


def overlap(a: list[str], b: list[str]) -> float:
    """The Dice overlap of two word lists (tasks/families.dice); 0 when either is empty."""
    return dice(a, b) if a and b else 0.0


def similarity(a: tuple[list[str], list[str]], b: tuple[list[str], list[str]]) -> float:
    """The mean of the instructions' and the commands' overlap (Item.words); the instructions' alone
    where either has no command word."""
    if not a[1] or not b[1]:
        return overlap(a[0], b[0])
    return (overlap(a[0], b[0]) + overlap(a[1], b[1])) / 2


def group_names(items: list[Item], existing: dict[str, tuple[str, list[Item]]],
                threshold: float = THRESHOLD) -> list[str]:
    """Each item's group. `existing`: {group: (its category, its entries)} of the skills already
    written; an item that joins one gets that group's name. A new group's name is unused by
    `existing` and by every other new group."""
    words = [item.words() for item in items]
    known = {group: (category, [entry.words() for entry in entries])
             for group, (category, entries) in existing.items()}
    names: list[str | None] = [None] * len(items)
    for index, item in enumerate(items):
        scored = [(_mean(similarity(words[index], other) for other in entries), group)
                  for group, (category, entries) in known.items() if category == item.category and entries]
        best = max(scored, default=(0.0, ""), key=lambda s: (s[0], s[1]))
        if best[1] and best[0] >= threshold:
            names[index] = best[1]
    document_frequency = Counter(w for ws, _ in words for w in set(ws) if w not in _PLACEHOLDERS)
    taken = set(existing)
    for category in sorted({item.category for item in items}):
        members = [i for i, item in enumerate(items) if item.category == category and names[i] is None]
        for cluster in _average_link(members, words, threshold):
            name = _name(category, [words[i][0] for i in cluster], document_frequency, len(items), taken)
            taken.add(name)
            for i in cluster:
                names[i] = name
    return [str(name) for name in names]


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def _average_link(members: list[int], words: list, threshold: float) -> list[list[int]]:
    """Groups of `members`: the two groups with the highest mean pairwise similarity merged while it
    is at `threshold` or above (ties: the earliest pair), each group in the items' order."""
    pair = {(a, b): similarity(words[a], words[b]) for a in members for b in members if a < b}
    groups = [[m] for m in members]
    while len(groups) > 1:
        best, where = -1.0, (0, 0)
        for x in range(len(groups)):
            for y in range(x + 1, len(groups)):
                score = _mean(pair[min(a, b), max(a, b)] for a in groups[x] for b in groups[y])
                if score > best:
                    best, where = score, (x, y)
        if best < threshold:
            break
        x, y = where
        groups[x] = sorted(groups[x] + groups.pop(y))
    return groups


def _name(category: str, cluster: list[list[str]], document_frequency: Counter, total: int, taken: set[str]) -> str:
    """`<category>-<word>-<word>`: the cluster's two words with the highest count x log(total / df)
    (ties alphabetical); `-2`, `-3`, ... where that name is taken."""
    counts = Counter(w for ws in cluster for w in ws if w not in _PLACEHOLDERS)
    score = {w: c * math.log((total + 1) / document_frequency[w]) for w, c in counts.items()}
    top = sorted(score, key=lambda w: (-score[w], w))[:2]
    # room for a "-<n>" within the CATEGORY_CHARS a skill's name keeps of its group
    base = category_key(" ".join([category[:CATEGORY_CHARS // 2], *top]))[:CATEGORY_CHARS - 3].strip("-") or "tasks"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name
