"""The skill placed in the prompt (skill_in_prompt_tokens > 0): the body of the workspace's skill that
best matches the task, so that a model which rarely calls read_skill still gets its steps.

Relevance is between the instruction and the skill's name and description. With a semantic embedder
(sentence, remote) it is the embedder's cosine. With the lexical one (the default) it is a word TF-IDF
cosine, the library's skills as the documents: the lexical embedder's character n-grams of a long
instruction drowned the few words a description shares with it, and the skill written for the task's
kind was placed for 18 of 48 terminal-easy tasks against 36 of 48 with words
(benchmarks/probes/inline_probe.py, docs/log/results-runs.md, run 7). The most relevant skill is placed, if
any is relevant at all (above MIN_RELEVANCE for an embedder, any shared word of the library's
vocabulary for words): its whole body when it fits the token budget, else its first lines that fit
and a line saying it was cut. Before 2026-11-28 the best skill that fitted was placed instead, and
a long skill gave its place to a short one of another kind: run 17's distilled archives skill was
placed for 37 of 40 holdout tasks (docs/results.md). Without an embedder, or when it fails, nothing is placed. The
text goes at the end of the system prompt, after what every task shares, so an embedded model keeps
its evaluated prefix from one attempt to the next.

A skill may declare the task categories it is written for (`metadata.category` in its frontmatter,
skills.skill_categories; the distilling evolver writes it). When the task's category is given and a
skill declares it, only such skills are candidates, and the best of them is placed whatever its
words; when no skill declares it, only the skills that declare nothing are (a library whose skills
all declare their kinds places nothing for a kind it has no skill for). A placed skill that declares
several categories leaves out the `### <category>` sections it has of the others (each up to the next
heading of level 1-3). Run 20's shared skill for four kinds was placed for tasks of other kinds, and
its entries of other kinds were read by tasks of its own (docs/results.md): the skill holding the
task's kind was placed for 29 of 40 holdout tasks. A declaration is the skill's own claim, not
checked against its steps: an evolver's skill declaring every kind is placed for all of them, and the
gate judges what that does. A library that declares no categories (the seed, the expert, any
skill written by hand) is ranked by words alone, as before.

A distilled skill is placed only where one of its entries is close to the task (issue 66): each
entry stores its task's instruction (adaptive_skill/entries.py), and the candidates whose entries do
are ranked by the closest entry, the overlap of masked words (entry_similarity), and placed only at
`min_similarity` (`skill_in_prompt_min_similarity`, 0.3) or above; the others (hand-written, seed,
expert, or distilled before 2026-12-06) only when none of those is close, ranked as above; and when
no skill declaring the task's kind is close, the task gets what the library without them gives it
(the seed's placement), so a distilled skill changes the prompt only where it is placed. On the
family suite's split (configs/families.yaml, every train task's entry, benchmarks/perf/bench_placement.py)
the category and words placed a twin's own family skill for 74 of 100 in-family holdout tasks and
another family's for 58 of 132 holdout tasks; ranked by entries at 0.3, 92 and 30. The overlap is of
words, not meaning: the sqlite query tasks still get the skill of sqlite updates, whose instructions
share most of theirs (docs/engine.md).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from adaptive_skill.entries import entry_tasks, is_distilled
from adaptive_skill.skills import Skill, category_key, skill_categories
from adaptive_skill.tasks.families import dice, instruction_words

MIN_LINES = 2  # a body cut to fit keeps at least this many lines that are not headings, or nothing is placed
MIN_RELEVANCE = 0.1  # an embedder's cosine; the lexical embedder scored unrelated texts up to about 0.06
WORD_MIN_RELEVANCE = 1e-9  # words: at least one word of the library's vocabulary in common
# 11 splits of the family suite: 997 right placements and 300 wrong, against 854 and 576 with the rule off
ENTRY_MIN_SIMILARITY = 0.3  # (benchmarks/perf/bench_placement.py --seeds)
INSTRUCTION_CHARS = 4000  # of the task's instruction compared with the entries
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("the a an to of and or in on for with is are be that this it as at by from use when any your "
                  "you not no so".split())


@dataclass(frozen=True)
class InlineSkill:
    name: str
    body: str
    relevance: float
    tokens: int
    category: str = ""  # the task's category, when the skill was chosen because it declares it
    entry_similarity: float | None = None  # its closest entry's (entry_similarity); None: no entry was compared

    def text(self) -> str:
        return f"The skill that best matches this task, {self.name} (already read for you):\n{self.body.strip()}\n"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "body"}


def best_skill(skills: list[Skill], instruction: str, *, budget_tokens: int, embedder: Any,
               count_tokens: Callable[[str], int], category: str = "",
               min_similarity: float = ENTRY_MIN_SIMILARITY) -> InlineSkill | None:
    """The most relevant skill whose placed text fits `budget_tokens`, or None. `category` is the
    task's (Task.category; "" when unknown): a skill declaring it is preferred as the module says.
    A candidate whose entries store their tasks is placed only when its closest entry is at
    `min_similarity` or above (0: off, every skill ranked as before 2026-12-06)."""
    if budget_tokens <= 0 or embedder is None or not skills or not instruction.strip():
        return None
    if getattr(embedder, "surface_form", False):  # the lexical embedder, cached or not
        scores, floor = word_relevance(skills, instruction), WORD_MIN_RELEVANCE
    else:
        scores, floor = embedder_relevance(skills, instruction, embedder), MIN_RELEVANCE
    if scores is None:
        return None  # nothing placed; the agent still reads skills with read_skill
    kind = category_key(category)
    declared = [skill_categories(s) for s in skills]
    matched = bool(kind) and any(kind in d for d in declared)
    words = instruction_words(instruction[:INSTRUCTION_CHARS])
    picked = _pick([(score, skill) for score, skill, d in zip(scores, skills, declared, strict=True)
                    if not kind or (kind in d if matched else not d)], kind, matched, words, min_similarity, floor)
    if picked is None and matched:
        # No skill declaring the task's kind is close to it: the task gets what the library without
        # the skills that declare a kind gives it (the seed's check-your-work, ranked among those alone),
        # so a distilled skill changes the prompt only where it is placed, and the gate per skill sees
        # every change a candidate makes (issue 66).
        return best_skill([s for s, d in zip(skills, declared, strict=True) if not d], instruction,
                          budget_tokens=budget_tokens, embedder=embedder, count_tokens=count_tokens,
                          category=category, min_similarity=min_similarity)
    if picked is None:
        return None
    similarity, relevance, skill, lines = picked
    for end in range(len(lines), 0, -1):  # the whole body, else its first lines that fit
        kept = lines[:end]
        if sum(1 for line in kept if line.strip() and not line.lstrip().startswith("#")) < MIN_LINES:
            return None
        body = "\n".join(kept) + ("" if end == len(lines) else f"\n(cut to fit; read_skill {skill.name} for the rest)")
        tokens = count_tokens(InlineSkill(skill.name, body, 0.0, 0).text())
        if tokens <= budget_tokens:
            return InlineSkill(skill.name, body, round(relevance, 4), tokens, kind if matched else "",
                               None if similarity is None else round(similarity, 4))
    return None


def _pick(candidates: list[tuple[float, Skill]], kind: str, matched: bool, words: list[str], min_similarity: float,
          floor: float) -> tuple[float | None, float, Skill, list[str]] | None:
    """best_skill's choice among `candidates` (relevance, skill): those whose entries store their tasks
    only at `min_similarity` or closer, ranked by the closest entry; else the others by relevance
    (at `floor` or above unless `matched`, a skill declaring the task's kind). With `matched`, a skill's
    sections of its other declared kinds are left out. (entry similarity or None, relevance, skill,
    the lines it would place), or None."""
    near, plain = [], []  # (entry similarity, relevance, skill, the lines it would place)
    for relevance, skill in candidates:
        lines = own_sections(skill.body.strip().splitlines(), kind, skill_categories(skill)) if matched \
            else skill.body.strip().splitlines()
        tasks = entry_tasks(skill.frontmatter, lines) if min_similarity > 0 and is_distilled(skill.body) else None
        if tasks is None:
            plain.append((None, relevance, skill, lines))
        elif tasks and (similarity := max(entry_similarity(words, task) for task in tasks)) >= min_similarity:
            near.append((similarity, relevance, skill, lines))
    if near:  # the closest entry decides, then words
        return min(near, key=lambda r: (-round(r[0], 4), -round(r[1], 4), r[2].name))
    if plain:
        best = min(plain, key=lambda r: (-round(r[1], 4), r[2].name))
        return None if best[1] < floor and not matched else best
    return None


def entry_similarity(words: list[str], task: str) -> float:
    """How close a task is to one entry's task: the overlap 2 |A & B| / (|A| + |B|) of their
    instructions' words as tasks/families.py masks them (every quoted value, path and number one
    placeholder; the commonest small words dropped). `words` are the task's (instruction_words);
    0 when either has none. Measured against inline.py's word TF-IDF on the same texts and the
    entries' first sentences (benchmarks/perf/bench_placement.py), it separated a twin's own family
    from its neighbours best."""
    other = instruction_words(task)
    return dice(words, other) if words and other else 0.0


def own_sections(lines: list[str], kind: str, declared: frozenset[str]) -> list[str]:
    """`lines` without the `### <category>` sections of the skill's other declared categories (each up
    to the next heading of level 1-3; a `####` inside one stays in it); every other line, and a
    section whose heading names no declared category, kept."""
    kept, skipping = [], False
    for line in lines:
        text = line.strip()
        level = len(text) - len(text.lstrip("#"))
        if 1 <= level <= 3:
            name = category_key(text[3:]) if level == 3 else ""
            skipping = name in declared and name != kind
        if not skipping:
            kept.append(line)
    return kept


def _about(skill: Skill) -> str:
    return f"{skill.name.replace('-', ' ')}: {skill.description}"


def embedder_relevance(skills: list[Skill], instruction: str, embedder: Any) -> list[float] | None:
    """The embedder's cosine between the instruction and each skill's name and description; None
    when the embedder fails."""
    try:
        vectors = embedder.embed([instruction] + [_about(s) for s in skills])
    except Exception:  # noqa: BLE001 - as memory ranking: an embedder failure never crashes a solve
        return None
    return [float(vectors[0] @ v) for v in vectors[1:]]


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in _STOP]


def word_relevance(skills: list[Skill], instruction: str) -> list[float]:
    """Word TF-IDF cosine between the instruction and each skill's name and description, the
    library's skills as the documents: a word every skill has weighs little, one only a git skill has
    ("git", "branch") decides. Words of the instruction no skill has count for its length only."""
    docs = [Counter(_words(_about(s))) for s in skills]
    df = Counter(w for d in docs for w in d)
    idf = {w: math.log((len(docs) + 1) / (n + 0.5)) for w, n in df.items()}

    def unit(counts: Counter) -> dict[str, float]:
        vector = {w: (1 + math.log(n)) * idf.get(w, 0.0) for w, n in counts.items()}
        norm = math.sqrt(sum(x * x for x in vector.values()))
        return {w: x / norm for w, x in vector.items()} if norm else {}

    query = unit(Counter(_words(instruction)))
    return [sum(query.get(w, 0.0) * x for w, x in unit(d).items()) for d in docs]
