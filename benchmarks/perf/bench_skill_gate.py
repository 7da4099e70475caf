"""How often the gate per skill keeps a skill that does not help, and drops one that does.

Drives the pure `adaptive_skill.engine.sequential.skill_decisions` with simulated gate rounds: a
candidate changes `skills` skills, each placed for `tasks` holdout tasks of its own (its family's instances);
a skill's effect moves the success rate of each of its tasks by `delta` (a recipe that fixes the
family's slip: +; one that teaches the trap: -; 0: neither). Per task the baseline's rate is
p ~ U(0.5 - spread, 0.5 + spread), with repeats correlated by `rho` as in bench_gating.py. The gate
runs rounds until every skill is decided or `max_rounds`, then drops the undecided ones.

Prints, per setting, P(keep) of a skill by its effect, and the family-wise rate: the share of
candidates in which at least one harmful skill (delta < 0) was kept, with 95% Wilson intervals.
`--skills 1` is one skill alone (no correction for multiple tests).

    python benchmarks/perf/bench_skill_gate.py                  # the table in docs/engine.md
    python benchmarks/perf/bench_skill_gate.py --skills 1 8 24 --tasks 2 5 --max-rounds 2 30
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gating import Holdout, simulate_rounds, wilson  # noqa: E402

from adaptive_skill.config import GatingConfig  # noqa: E402
from adaptive_skill.engine.sequential import skill_decisions  # noqa: E402


def one_candidate(skills: int, tasks: int, effects: list[float], gating: GatingConfig, spread: float, rho: float,
                  rng: random.Random) -> dict[str, str]:
    """The per-skill verdicts of one simulated candidate: skill i has effect effects[i % len(effects)]."""
    placed: dict[str, str] = {}
    drawn: list[list[dict]] = []
    for s in range(skills):
        rounds = simulate_rounds(Holdout(tasks=tasks, delta=effects[s % len(effects)], spread=spread, rho=rho),
                                 gating.max_rounds, rng)
        drawn.append([{f"s{s}-{t}": pair for t, pair in r.items()} for r in rounds])
        placed.update({f"s{s}-t{i}": f"s{s}" for i in range(tasks)})
    names = [f"s{s}" for s in range(skills)]
    decided: dict[str, str] = {}
    for n in range(1, gating.max_rounds + 1):
        rounds = [{k: v for part in drawn for k, v in part[r].items()} for r in range(n)]
        verdicts = skill_decisions(rounds, placed, names, gating, final=n == gating.max_rounds)
        decided = {s: d.verdict for s, d in verdicts.items()}
        if "continue" not in decided.values():
            break
    return decided


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=1000, help="simulated candidates per cell")
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument("--skills", type=int, nargs="+", default=[1, 8, 24])
    parser.add_argument("--tasks", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--effects", type=float, nargs="+", default=[0.3, 0.0, -0.3],
                        help="the skills' effects, in turn (skill i gets effects[i mod n])")
    parser.add_argument("--max-rounds", type=int, nargs="+", default=[2, 6])
    parser.add_argument("--skill-effect", type=float, nargs="+", default=[0.3],
                        help="gating.skill_effect: the effect each skill's test tells from its opposite")
    parser.add_argument("--rho", type=float, default=0.3)
    parser.add_argument("--spread", type=float, default=0.3)
    args = parser.parse_args(argv)
    started = time.monotonic()
    rng = random.Random(args.seed)
    print("| skills | tasks each | rounds | " + " | ".join(f"P(keep) at {e:+g}" for e in args.effects)
          + " | P(a harmful skill kept) |")
    print("|---:|---:|---:|" + "---|" * (len(args.effects) + 1))
    for rounds, effect in ((r, e) for r in args.max_rounds for e in args.skill_effect):
        gating = GatingConfig(min_rounds=min(2, rounds), max_rounds=rounds, skill_effect=effect)
        if len(args.skill_effect) > 1:
            print(f"| skill_effect {effect:g} |")
        for skills in args.skills:
            for tasks in args.tasks:
                kept = {e: [0, 0] for e in args.effects}
                family_wise = 0
                for _ in range(args.candidates):
                    decided = one_candidate(skills, tasks, args.effects, gating, args.spread, args.rho, rng)
                    bad = False
                    for s, verdict in decided.items():
                        effect = args.effects[int(s[1:]) % len(args.effects)]
                        kept[effect][0] += verdict == "keep"
                        kept[effect][1] += 1
                        bad |= verdict == "keep" and effect < 0
                    family_wise += bad
                cells = [_rate(*kept[e]) for e in args.effects]
                print(f"| {skills} | {tasks} | {rounds} | " + " | ".join(cells)
                      + f" | {_rate(family_wise, args.candidates)} |")
    print(f"\n{args.candidates} candidates per row, rho {args.rho}, spread {args.spread}, seed {args.seed}, "
          f"{time.monotonic() - started:.0f} s")
    return 0


def _rate(hits: int, n: int) -> str:
    if not n:
        return "-"
    low, high = wilson(hits, n)
    return f"{hits / n:.3f} [{low:.3f}, {high:.3f}]"


if __name__ == "__main__":
    sys.exit(main())
