"""How often the holdout gate accepts a regression, rejects an improvement, and what it costs.

Drives the pure `adaptive_skill.engine.sequential.sequential_decision` (and, for comparison, the
fixed-sample rule the gate had before it and the plain sign walk) with simulated holdouts:

- `tasks` holdout tasks, the baseline's success rate per task p ~ U(0.5 - spread, 0.5 + spread)
  (spread 0.3: U(0.2, 0.8)), the mutated side's p + delta (clipped to 0-1);
- repeats of one task on one side correlated with intra-class correlation `rho`: per task and side
  a rate q ~ Beta(p (1 - rho) / rho, (1 - p)(1 - rho) / rho) is drawn once and every round is
  Bernoulli(q): rho 0 gives independent rounds, rho 1 a single outcome repeated (the embedded model
  at temperature 0);
- the `fix-one` scenario: every outcome frozen (rho 1), the mutated side equal to the baseline
  except one task the baseline fails and the mutated side passes.

A rollout is one attempt; a round is every holdout task once on each side (2 x tasks rollouts).
Prints P(accept), P(reject) and the expected rollouts per decision with 95% Wilson intervals.
`--grid` scans the rule's parameters and lists the settings that meet the bounds of issue 19.

    python benchmarks/perf/bench_gating.py                      # the table in docs/engine.md
    python benchmarks/perf/bench_gating.py --grid --decisions 2000
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from adaptive_skill.config import GatingConfig  # noqa: E402
from adaptive_skill.engine.sequential import Round, sequential_decision  # noqa: E402

BOUNDS = {"accept_regression": 0.05, "reject_improvement": 0.15, "rollouts": 150}


@dataclass(frozen=True)
class Holdout:
    tasks: int = 6
    delta: float = 0.0
    spread: float = 0.3
    rho: float = 0.0
    fix_one: bool = False


def simulate_rounds(holdout: Holdout, max_rounds: int, rng: random.Random) -> list[Round]:
    """Every round a rule could ask for, drawn up front (a rule reads as many as it needs)."""
    if holdout.fix_one:
        frozen = [int(rng.random() < rng.uniform(0.5 - holdout.spread, 0.5 + holdout.spread))
                  for _ in range(holdout.tasks)]
        frozen[0] = 0
        mutated = list(frozen)
        mutated[0] = 1
        return [{f"t{i}": (float(frozen[i]), float(mutated[i])) for i in range(holdout.tasks)}] * max_rounds
    rates = []
    for _ in range(holdout.tasks):
        p = rng.uniform(0.5 - holdout.spread, 0.5 + holdout.spread)
        rates.append((_task_rate(p, holdout.rho, rng), _task_rate(min(1.0, max(0.0, p + holdout.delta)),
                                                                  holdout.rho, rng)))
    return [{f"t{i}": (float(rng.random() < qb), float(rng.random() < qm)) for i, (qb, qm) in enumerate(rates)}
            for _ in range(max_rounds)]


def _task_rate(p: float, rho: float, rng: random.Random) -> float:
    if rho <= 0.0 or p in (0.0, 1.0):
        return p
    if rho >= 1.0:
        return float(rng.random() < p)
    scale = (1 - rho) / rho
    return rng.betavariate(p * scale, (1 - p) * scale)


# -- the rules: each reads rounds one at a time and returns (verdict, rounds used) ------------------

Rule = Callable[[list[Round]], tuple[str, int]]


def sequential(gating: GatingConfig) -> Rule:
    def run(rounds: list[Round]) -> tuple[str, int]:
        for n in range(1, gating.max_rounds + 1):
            decision = sequential_decision(rounds[:n], gating)
            if decision.final:
                return decision.verdict, n
        raise AssertionError("sequential_decision must decide by max_rounds")
    return run


def fixed_mean(repeats: int) -> Rule:
    """The gate before issue 19: mean over `repeats` rounds, accept when mutated >= baseline (margin
    0, ties accepted)."""
    def run(rounds: list[Round]) -> tuple[str, int]:
        pairs = [pair for one_round in rounds[:repeats] for pair in one_round.values()]
        delta = sum(m - b for b, m in pairs) / len(pairs)
        return ("accept" if delta >= 0 else "reject"), repeats
    return run


def sign_walk(up: int = 7, down: int = 4, cap: int = 20) -> Rule:
    """Net wins over every pair, each round counted as new evidence (issue 19's table)."""
    def run(rounds: list[Round]) -> tuple[str, int]:
        net = 0
        for n, one_round in enumerate(rounds[:cap], start=1):
            net += sum((m > b) - (m < b) for b, m in one_round.values())
            if net >= up:
                return "accept", n
            if net <= -down:
                return "reject", n
        return "reject", cap
    return run


@dataclass
class Cell:
    accept: int = 0
    reject: int = 0
    rollouts: int = 0
    rollouts_sq: int = 0
    decisions: int = 0

    def add(self, verdict: str, rollouts: int) -> None:
        self.decisions += 1
        self.accept += verdict == "accept"
        self.reject += verdict == "reject"
        self.rollouts += rollouts
        self.rollouts_sq += rollouts * rollouts

    def rate(self, verdict: str) -> float:
        return getattr(self, verdict) / self.decisions

    def interval(self, verdict: str) -> tuple[float, float]:
        return wilson(getattr(self, verdict), self.decisions)

    @property
    def mean_rollouts(self) -> float:
        return self.rollouts / self.decisions

    @property
    def rollouts_ci(self) -> float:
        """Half-width of the 95% interval of the expected rollouts."""
        variance = self.rollouts_sq / self.decisions - self.mean_rollouts ** 2
        return 1.96 * math.sqrt(max(variance, 0.0) / self.decisions)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(rule: Rule, holdout: Holdout, decisions: int, seed: int, max_rounds: int) -> Cell:
    rng = random.Random(f"{seed}-{holdout}")  # the same holdouts for every rule
    cell = Cell()
    for _ in range(decisions):
        verdict, used = rule(simulate_rounds(holdout, max_rounds, rng))
        cell.add(verdict, used * 2 * holdout.tasks)
    return cell


def meets_bounds(cells: dict[float, Cell]) -> bool:
    return (cells[-0.1].rate("accept") <= BOUNDS["accept_regression"]
            and cells[0.1].rate("reject") <= BOUNDS["reject_improvement"]
            and all(c.mean_rollouts <= BOUNDS["rollouts"] for c in cells.values()))


def table(args) -> list[dict]:
    default = GatingConfig()
    rules: dict[str, Rule] = {"today (1 round, mean >= 0)": fixed_mean(1),
                              "today, 10 repeats": fixed_mean(10),
                              "sign walk +7/-4, cap 20": sign_walk(),
                              "sequential (default)": sequential(default)}
    for n in args.fixed_rounds or []:  # the sequential rule cut at n rounds (the learning-curve benchmark's gate)
        rules[f"sequential, {n} round(s)"] = sequential(GatingConfig(min_rounds=n, max_rounds=n))
    # The same drawn rounds for every rule, as many as the deepest rule may need (a sequential rule cut at
    # more rounds than were drawn would never decide).
    depth = max(default.max_rounds, 20, *(args.fixed_rounds or []))
    rows = []
    scenarios = [Holdout(tasks, delta, args.spread, rho) for tasks in args.tasks for rho in args.rho
                 for delta in args.deltas]
    scenarios += [Holdout(tasks, 0.0, args.spread, 1.0, fix_one=True) for tasks in args.tasks]
    print(f"{'rule':28} {'tasks':>5} {'rho':>4} {'delta':>9} {'P(accept)':>22} {'P(reject)':>22} "
          f"{'rollouts':>14}")
    for name, rule in rules.items():
        if args.rules and not any(part in name for part in args.rules):
            continue
        for holdout in scenarios:
            cell = evaluate(rule, holdout, args.decisions, args.seed, depth)
            lo_a, hi_a = cell.interval("accept")
            lo_r, hi_r = cell.interval("reject")
            delta = "fix-one" if holdout.fix_one else f"{holdout.delta:+.2f}"
            print(f"{name:28} {holdout.tasks:5d} {holdout.rho:4.1f} {delta:>9} "
                  f"{cell.rate('accept'):6.3f} [{lo_a:.3f},{hi_a:.3f}] {cell.rate('reject'):6.3f} "
                  f"[{lo_r:.3f},{hi_r:.3f}] {cell.mean_rollouts:7.1f} +-{cell.rollouts_ci:4.1f}")
            rows.append({"rule": name, "tasks": holdout.tasks, "rho": holdout.rho, "delta": delta,
                         "p_accept": cell.rate("accept"), "p_accept_ci": [lo_a, hi_a],
                         "p_reject": cell.rate("reject"), "p_reject_ci": [lo_r, hi_r],
                         "rollouts": cell.mean_rollouts, "rollouts_ci": cell.rollouts_ci,
                         "decisions": cell.decisions})
    return rows


def grid(args) -> list[dict]:
    """Settings of the sequential rule that meet the bounds at rho 0 with 6 tasks, cheapest first."""
    found = []
    space = itertools.product([2.4, 2.5, 2.75], [1.5, 2.0, 2.25, 2.5], [24, 30, 34], [0.1])
    for accept_at, reject_at, max_rounds, min_sd in space:
        gating = GatingConfig(accept_at=accept_at, reject_at=reject_at, max_rounds=max_rounds, min_task_sd=min_sd)
        cells = {delta: evaluate(sequential(gating), Holdout(6, delta, args.spread, 0.0), args.decisions,
                                 args.seed, max_rounds) for delta in (-0.1, 0.0, 0.1)}
        row = {"accept_at": accept_at, "reject_at": reject_at, "max_rounds": max_rounds, "min_task_sd": min_sd,
               "accept_regression": cells[-0.1].rate("accept"), "reject_improvement": cells[0.1].rate("reject"),
               "accept_noop": cells[0.0].rate("accept"),
               "rollouts": max(c.mean_rollouts for c in cells.values()), "meets": meets_bounds(cells)}
        found.append(row)
        print(json.dumps(row), flush=True)
    ok = sorted((r for r in found if r["meets"]), key=lambda r: (r["rollouts"], r["accept_noop"]))
    print("\nmeeting the bounds, cheapest first:")
    for row in ok[:10]:
        print(json.dumps(row))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=4000, help="simulated decisions per cell")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--tasks", type=int, nargs="+", default=[6, 12])
    parser.add_argument("--rho", type=float, nargs="+", default=[0.0, 0.3, 1.0])
    parser.add_argument("--deltas", type=float, nargs="+", default=[-0.1, 0.0, 0.1])
    parser.add_argument("--spread", type=float, default=0.3, help="per-task p ~ U(0.5 - spread, 0.5 + spread)")
    parser.add_argument("--rules", nargs="+", help="only the rules whose name contains one of these")
    parser.add_argument("--grid", action="store_true", help="scan the sequential rule's parameters")
    parser.add_argument("--fixed-rounds", type=int, nargs="+", metavar="N",
                        help="also the sequential rule with min_rounds = max_rounds = N (what a benchmark that "
                             "fixes its gate's rounds runs)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows here")
    args = parser.parse_args(argv)
    started = time.monotonic()
    rows = grid(args) if args.grid else table(args)
    print(f"\n{args.decisions} decisions per cell, seed {args.seed}, {time.monotonic() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
