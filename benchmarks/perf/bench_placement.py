"""Where the skill in the prompt is placed on the family suite, and what a threshold on the closeness
of its entries changes (issue 66). No model, no Docker: it reads task files and compares texts.

    python benchmarks/perf/bench_placement.py            # the tables in docs/engine.md (about 2 s)
    python benchmarks/perf/bench_placement.py --seeds    # the chosen rule on 11 splits (seeds 0-9, 66)
    python benchmarks/perf/bench_placement.py --all      # every similarity's grid, not only its summary
    python benchmarks/perf/bench_placement.py --show     # each holdout task's placement

The library is the one configs/families.yaml would write if the agent had passed every train task:
the seed workspace's skills, and per train family one `<family>-worked-commands` skill whose entries
are that family's train tasks, written by distill.py's own plan_skills and write_skill (evolver.group:
family, max_skills 29), each entry with its task's instruction in the metadata as the evolver stores
it. An entry's commands are the last three of the task's reference solution (solution/solve.sh),
standing in for the agent's worked commands: they decide how many entries fit the body, not where the
skill is placed.

For each holdout task of the split (seed 66, holdout_ratio 0.5, holdout_families 4: 100 in-family
tasks, whose family has a skill, and 32 out-of-family), agent/inline.py's best_skill with the task's
category and the lexical embedder, as the config runs it: right (the task's own family's skill),
wrong (another family's, or any skill for an out-of-family task), none. `today` is best_skill with
skill_in_prompt_min_similarity 0 (the rule off: the category, then words). Then, for a grid of
thresholds T:
  rank   best_skill as it is now: the candidates of the task's category ranked by their closest
         entry (inline.entry_similarity), placed only at T or above;
  gate   today's pick, kept only when its closest entry is at T or above;
and, for comparison, the same `rank` with other similarities between the task and an entry: the
word TF-IDF of inline.py (the library's entries the documents) on the entry's instruction or on its
first sentence (all a skill held before 2026-12-06), and the masked-word overlap on the first sentence.
`nearest` adds to rank that the placed skill holds the closest entry of the whole library (not adopted).
AUC: the chance that a right placement's similarity is above a wrong one's.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.agent import inline  # noqa: E402
from adaptive_skill.config import EmbedderConfig  # noqa: E402
from adaptive_skill.embed import make_embedder  # noqa: E402
from adaptive_skill.entries import entry_tasks  # noqa: E402
from adaptive_skill.evolve import distill  # noqa: E402
from adaptive_skill.observe.tokens import TokenCounter  # noqa: E402
from adaptive_skill.skills import Skill, category_key, check_skills, load_skill, skill_categories  # noqa: E402
from adaptive_skill.tasks.families import instruction_words  # noqa: E402
from adaptive_skill.tasks.loader import load_suite  # noqa: E402
from adaptive_skill.tasks.split import holdout_twins, split_suite  # noqa: E402

SUITE = ROOT / "benchmarks" / "terminal-families"
SEED_WORKSPACE = ROOT / "workspace"
GRID = (0.0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
SEEDS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 66)


def solution_commands(task) -> list[str]:
    """The reference solution's command lines (no shebang, `set -`, comment or blank line) that
    distill.py would keep (_usable), as the agent's worked commands."""
    try:
        script = task.solution_script.read_text(encoding="utf-8") if task.solution_script else ""
    except OSError:
        script = ""
    lines = [line.strip() for line in script.splitlines()]
    return [line for line in lines if line and not line.startswith(("#", "set -")) and distill._usable(line)] \
        or ["true"]


def build_library(train, folder: Path) -> list[Skill]:
    """The seed's skills and the distilled family skills, as loaded for the agent."""
    skills_dir = folder / "skills"
    for seed in sorted((SEED_WORKSPACE / "skills").iterdir()):
        if (seed / "SKILL.md").is_file():
            (skills_dir / seed.name).mkdir(parents=True)
            (skills_dir / seed.name / "SKILL.md").write_text((seed / "SKILL.md").read_text())
    found = [distill.Passed.of(t.id, t.category, distill.first_sentence(t.instruction), solution_commands(t),
                               False, t.family or "", t.instruction) for t in sorted(train, key=lambda t: t.id)]
    plan = distill.plan_skills(folder, found, 29, distill.BODY_CHARS, shared_chars=2000)
    for name, entries in plan.skills.items():
        distill.write_skill(skills_dir / name, name, plan.categories[name], entries)
    problems = check_skills(skills_dir, max_body_chars=10**9, require_verification=False)
    if problems:
        raise SystemExit(f"the built library is invalid: {problems[:3]}")
    return [load_skill(d) for d in sorted(skills_dir.iterdir())]


# -- similarities between a task's instruction and one entry ----------------------------------------

def tfidf(documents: list[str]) -> Callable[[str, str], float]:
    """inline.py's word TF-IDF cosine (inline.word_relevance), `documents` the corpus."""
    docs = [Counter(inline._words(d)) for d in documents]
    df = Counter(w for d in docs for w in d)
    idf = {w: math.log((len(docs) + 1) / (n + 0.5)) for w, n in df.items()}

    def unit(text: str) -> dict[str, float]:
        vector = {w: (1 + math.log(n)) * idf.get(w, 0.0) for w, n in Counter(inline._words(text)).items()}
        norm = math.sqrt(sum(x * x for x in vector.values()))
        return {w: x / norm for w, x in vector.items()} if norm else {}

    return lambda a, b: (lambda u, v: sum(x * v.get(w, 0.0) for w, x in u.items()))(unit(a), unit(b))


def masked(a: str, b: str) -> float:
    return inline.entry_similarity(instruction_words(a[:inline.INSTRUCTION_CHARS]), b)


def auc(right: list[float], wrong: list[float]) -> float:
    if not right or not wrong:
        return float("nan")
    return sum((r > w) + 0.5 * (r == w) for r in right for w in wrong) / (len(right) * len(wrong))


class Split:
    """One split's holdout and library, and the entries' texts per skill."""

    def __init__(self, tasks, seed: int):
        self.train, self.holdout = split_suite(tasks, 0.5, seed, whole_families=4)
        self.twins = set(holdout_twins(self.train, self.holdout)[0])
        with tempfile.TemporaryDirectory(prefix="bench-placement-") as scratch:
            self.skills = build_library(self.train, Path(scratch))
        self.tasks = {s.name: entry_tasks(s.frontmatter, s.body.splitlines()) or [] for s in self.skills}
        self.sentences = {s.name: [e.sentence for e in distill.entries_of(
            f"---\nname: x\ndescription: x\n---\n{s.body}")] for s in self.skills}
        self.embedder, self.count = make_embedder(EmbedderConfig(model="lexical")), TokenCounter().count

    def kind(self, task, name: str | None) -> str:
        if name is None or not name.endswith(distill.SUFFIX):  # nothing, or the seed's own placement
            return "none"
        return "right" if task.id in self.twins and name == distill.skill_name(task.family) else "wrong"

    def place(self, task, min_similarity: float):
        return inline.best_skill(self.skills, task.instruction, budget_tokens=300, embedder=self.embedder,
                                 count_tokens=self.count, category=task.category, min_similarity=min_similarity)

    def ranked(self, similarity, texts: dict[str, list[str]], nearest: bool = False):
        """Per holdout task (task, skill, its closest entry's similarity, kind): the candidates of the
        task's category (as best_skill takes them) ranked by their closest entry."""
        rows = []
        for task in self.holdout:
            kind = category_key(task.category)
            candidates = [s.name for s in self.skills if kind in skill_categories(s)]
            scores = {name: max((similarity(task.instruction, t) for t in entries), default=0.0)
                      for name, entries in texts.items() if entries}
            if not candidates:
                rows.append((task, None, 0.0, "none"))
                continue
            score, name = max((scores.get(n, 0.0), n) for n in candidates)
            if nearest and any(v > score for n, v in scores.items() if n != name):
                score = -1.0  # another skill of the library holds a closer entry
            rows.append((task, name, score, self.kind(task, name)))
        return rows


def counts(rows, t: float, twins: set[str], total: int) -> tuple[int, int, int, int]:
    right = sum(1 for _, _, s, k in rows if k == "right" and s >= t)
    wrong_in = sum(1 for task, _, s, k in rows if k == "wrong" and s >= t and task.id in twins)
    wrong_out = sum(1 for task, _, s, k in rows if k == "wrong" and s >= t and task.id not in twins)
    return right, wrong_in, wrong_out, total - right - wrong_in - wrong_out


def table(title: str, rows, split: Split, grid=GRID) -> None:
    right = [s for _, _, s, k in rows if k == "right"]
    wrong = [s for _, _, s, k in rows if k == "wrong"]
    print(f"\n{title}: AUC right vs wrong {auc(right, wrong):.3f}")
    print("| T | right (of 100 in-family) | wrong in-family | wrong out-of-family | wrong (of 132) | none |")
    print("| --- | --- | --- | --- | --- | --- |")
    for t in grid:
        r, wi, wo, none = counts(rows, t, split.twins, len(split.holdout))
        print(f"| {t:.2f} | {r} | {wi} | {wo} | {wi + wo} | {none} |")


def summary(title: str, rows, split: Split) -> None:
    right = sorted(s for _, _, s, k in rows if k == "right")
    wrong = [s for _, _, s, k in rows if k == "wrong"]
    keep = [(f"all {len(right)}", right[0] if right else 0.0), ("95%", right[len(right) // 20] if right else 0.0)]
    parts = []
    for label, t in keep:
        r, wi, wo, _ = counts(rows, t, split.twins, len(split.holdout))
        parts.append(f"keeping {label} right (T {t:.2f}): right {r}, wrong {wi} + {wo}")
    print(f"{title:34} AUC {auc(right, wrong):.3f}; " + "; ".join(parts))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", action="store_true", help="the chosen rule on the splits of seeds 0-9 and 66")
    p.add_argument("--all", action="store_true", help="every similarity's grid")
    p.add_argument("--show", action="store_true", help="each holdout task's placement at the configured threshold")
    args = p.parse_args(argv)
    started = time.monotonic()
    tasks = load_suite(SUITE)
    if args.seeds:
        return by_seed(tasks)
    split = Split(tasks, 66)
    holdout, twins = split.holdout, split.twins
    entries = sum(map(len, split.tasks.values()))
    print(f"split (seed 66): {len(split.train)} train, {len(holdout)} holdout ({len(twins)} in-family, "
          f"{len(holdout) - len(twins)} out-of-family); library: {len(split.skills)} skills, {entries} entries "
          f"with their task's instruction")
    today = [(task, placed.name if placed else None, 1.0, split.kind(task, placed.name if placed else None))
             for task in holdout for placed in [split.place(task, 0.0)]]
    r, wi, wo, none = counts(today, 0.0, twins, len(holdout))
    print(f"\ntoday (the category, then words; rule off): right {r} of 100, wrong {wi} in-family + {wo} "
          f"out-of-family = {wi + wo} of 132, none {none}")
    pairs = Counter(f"{t.family} <- {name.removesuffix(distill.SUFFIX)}" for t, name, _, k in today if k == "wrong")
    print("  wrong, the task's family <- the skill's:", ", ".join(f"{k} x{n}" for k, n in pairs.most_common()))

    rank = split.ranked(masked, split.tasks)
    for t in GRID:  # the bench's ranking is best_skill's: checked at every threshold
        product = [split.kind(task, placed.name if placed else None) for task in holdout
                   for placed in [split.place(task, t)]]
        mine = [k if s >= t else "none" for _, _, s, k in rank]
        if t > 0 and product != mine:
            raise SystemExit(f"best_skill and the bench's ranking differ at T {t}")
    table("rank: best_skill now (entry_similarity, the masked-word overlap with each entry's instruction)", rank, split)
    gate = []
    for task, name, _, kind in today:
        texts = split.tasks.get(name or "", [])
        gate.append((task, name, max((masked(task.instruction, x) for x in texts), default=0.0), kind))
    table("gate: today's pick kept when its closest entry is at T", gate, split)

    every = [x for v in split.tasks.values() for x in v]
    firsts = [x for v in split.sentences.values() for x in v]
    others = {"masked overlap, instruction": (masked, split.tasks),
              "masked overlap, first sentence": (masked, split.sentences),
              "word TF-IDF, instruction": (tfidf(every), split.tasks),
              "word TF-IDF, first sentence": (tfidf(firsts), split.sentences)}
    print("\nrank with other similarities (what the entry holds):")
    for label, (similarity, texts) in others.items():
        rows = split.ranked(similarity, texts)
        summary(label, rows, split)
        if args.all:
            table(label, rows, split)
    near = split.ranked(masked, split.tasks, nearest=True)
    print("nearest (rank, and the skill holds the library's closest entry): " + "; ".join(
        f"T {t:.2f}: right {r}, wrong {wi} + {wo}" for t in (0.0, 0.3, 0.35)
        for r, wi, wo, _ in [counts(near, t, twins, len(holdout))]))
    if args.show:
        print()
        for task in holdout:
            placed = split.place(task, inline.ENTRY_MIN_SIMILARITY)
            name = placed.name if placed else None
            print(f"  {split.kind(task, name):5} {'in ' if task.id in twins else 'out'} {task.id} <- {name} "
                  f"(entry similarity {placed.entry_similarity if placed else '-'})")
    print(f"\n{time.monotonic() - started:.1f} s")
    return 0


def by_seed(tasks) -> int:
    """The rank rule (best_skill now) at a few thresholds on 11 splits: summed right, wrong, and today's."""
    grid = (0.0, 0.25, 0.3, 0.35, 0.4)
    total = Counter()
    print("| seed | today right / wrong in / wrong out | " + " | ".join(f"T {t:.2f}" for t in grid[1:]) + " |")
    print("| --- | --- |" + " --- |" * (len(grid) - 1))
    for seed in SEEDS:
        split = Split(tasks, seed)
        today = [(task, pl.name if pl else None, 1.0, split.kind(task, pl.name if pl else None))
                 for task in split.holdout for pl in [split.place(task, 0.0)]]
        rank = split.ranked(masked, split.tasks)
        cells = [counts(today, 0.0, split.twins, len(split.holdout))[:3]]
        cells += [counts(rank, t, split.twins, len(split.holdout))[:3] for t in grid[1:]]
        for t, cell in zip(grid, cells, strict=True):
            total[t, "right"] += cell[0]
            total[t, "in"] += cell[1]
            total[t, "out"] += cell[2]
        print(f"| {seed} | " + " | ".join("/".join(map(str, c)) for c in cells) + " |")
    print("| all | " + " | ".join(f"{total[t, 'right']}/{total[t, 'in']}/{total[t, 'out']}" for t in grid) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
