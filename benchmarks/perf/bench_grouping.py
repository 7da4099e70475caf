"""How well grouping by instruction (evolver.group: similar, evolve/grouping.py) finds the family
suite's declared families when it is not told them (issue 66). No model, no Docker: it reads task
files and compares texts.

    python benchmarks/perf/bench_grouping.py            # the table in docs/engine.md (a second or two)
    python benchmarks/perf/bench_grouping.py --show     # each group of the chosen threshold

The batch is a split's train tasks (configs/families.yaml: seed 66, holdout_ratio 0.5, 4 whole
families held out; 100 tasks, 4 per family), every one taken as passed: the library the distilling
evolver would group at best. For each threshold T, grouping.group_names over them with no skill yet,
against the declared families (tasks/families.py):
  groups        how many skills the grouping writes (the families: 25)
  pure          groups whose tasks are all one family's
  pair P / R    of the pairs of tasks grouped together, the share that are one family's (P); of the
                pairs of one family, the share grouped together (R)
  mixed tasks   tasks in a group that holds another family's task too: where a wrong recipe would be
                dropped with a neighbour's
`category` (evolver.group's default) and `family` (the declared families) are the two references.
`--seeds` repeats it on the train side of 11 splits (seeds 0-9 and 66).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.evolve.grouping import THRESHOLD, Item, group_names  # noqa: E402
from adaptive_skill.skills import category_key  # noqa: E402
from adaptive_skill.tasks.loader import load_suite  # noqa: E402
from adaptive_skill.tasks.split import split_suite  # noqa: E402

SUITE = ROOT / "benchmarks" / "terminal-families"
GRID = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)


def score(families: list[str], groups: list[str]) -> dict:
    members: dict[str, list[int]] = defaultdict(list)
    for index, group in enumerate(groups):
        members[group].append(index)
    pure = sum(1 for m in members.values() if len({families[i] for i in m}) == 1)
    together = [(a, b) for m in members.values() for a, b in combinations(m, 2)]
    same = sum(1 for a, b in together if families[a] == families[b])
    family_pairs = sum(n * (n - 1) // 2 for n in Counter(families).values())
    mixed = sum(len(m) for m in members.values() if len({families[i] for i in m}) > 1)
    return {"groups": len(members), "pure": pure, "P": same / len(together) if together else 1.0,
            "R": same / family_pairs if family_pairs else 1.0, "mixed": mixed}


def batch(seed: int):
    train, _ = split_suite(load_suite(SUITE), 0.5, seed, whole_families=4)
    return train


def item(task) -> Item:
    """A train task as passed: its reference solution's last three commands standing in for the agent's
    worked ones (distill keeps an attempt's last three)."""
    lines = [line for line in task.solution_script.read_text().splitlines()
             if line.strip() and not line.startswith("#") and line.strip() not in ("set -e", "set -eu")]
    return Item(category_key(task.category or "uncategorized"), task.instruction, tuple(lines[-3:]))


def rows(train) -> list[tuple[str, dict]]:
    families = [t.family or t.id for t in train]
    items = [item(t) for t in train]
    out = [("category", score(families, [i.category for i in items])), ("family", score(families, families))]
    for threshold in GRID:
        out.append((f"similar {threshold:g}", score(families, group_names(items, {}, threshold))))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help=f"each group at the chosen threshold ({THRESHOLD})")
    parser.add_argument("--seeds", action="store_true", help="the same on the train side of 11 splits")
    args = parser.parse_args(argv)
    train = batch(66)
    print(f"{len(train)} train tasks of {len({t.family for t in train})} families (split seed 66)\n")
    print("| grouping | groups | pure | pair P | pair R | mixed tasks |\n| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, s in rows(train):
        print(f"| {name} | {s['groups']} | {s['pure']} | {s['P']:.2f} | {s['R']:.2f} | {s['mixed']} |")
    if args.seeds:
        total: dict[str, Counter] = defaultdict(Counter)
        for seed in (*range(10), 66):
            for name, s in rows(batch(seed)):
                total[name].update({k: v for k, v in s.items()})
        print("\nsums over 11 splits (P and R: means)\n| grouping | groups | pure | pair P | pair R | mixed tasks |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, s in total.items():
            print(f"| {name} | {s['groups']} | {s['pure']} | {s['P'] / 11:.2f} | {s['R'] / 11:.2f} | {s['mixed']} |")
    if args.show:
        items = [item(t) for t in train]
        names = group_names(items, {}, THRESHOLD)
        for group in sorted(set(names)):
            print(f"\n{group}: " + ", ".join(f"{t.id} ({t.family})" for t, n in zip(train, names, strict=True)
                                           if n == group))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
