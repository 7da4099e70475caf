"""Does a note on the attempt before (explore.reflect) make the agent pass tasks it fails?

    python benchmarks/probes/reflect_probe.py --out DIR [--seed 2] [--category git] [--task ID ...]
        [--repeats 4] [--temperature 1.0] [--model M] [--against plain|note]

The agent and workspace of the learning-curve benchmark (run.py's settings at its defaults, the seed
workspace): the train tasks of split --seed (or --task), optionally of one --category, are attempted
once as the evolve batch attempts them (the agent's temperature 0). Each task that fails is then
attempted --repeats times at --temperature, as explore passes do, twice per repeat with the same
sampling seed: once plainly and once with the note agent/reflect.py writes from the batch attempt's
trajectory (with the line on a program its container lacked, and which it has). With `--against
note` the first attempt of each pair gets the note without that line instead of none: what the
line adds. The verifier decides every attempt. Printed and written to DIR/results.json: per task the
batch attempt, the note, and plain and reflected passes; in total the pass rates with Wilson intervals,
the discordant pairs with an exact two-sided sign test, and the same test by task (a task's repeats
are not independent: the by-task test is the one to trust). Resumable: finished attempts under DIR
are reused.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "evolution"))  # run.py, the learning-curve benchmark
sys.path.insert(0, str(HERE.parents[1]))

import run as bench  # noqa: E402

from adaptive_skill.agent.reflect import reflection  # noqa: E402
from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.files import write_json_atomic  # noqa: E402
from adaptive_skill.harness.agents import build_agent  # noqa: E402
from adaptive_skill.harness.batch import run_batch  # noqa: E402
from adaptive_skill.harness.providers import make_provider  # noqa: E402
from adaptive_skill.llm import Accounting, make_llm  # noqa: E402
from adaptive_skill.sandbox.programs import Programs  # noqa: E402
from adaptive_skill.tasks.loader import load_suite  # noqa: E402
from adaptive_skill.tasks.split import split_suite  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=Path, help="output directory (re-run with it to resume)")
    p.add_argument("--seed", type=int, default=2, help="the split whose train tasks are tried (default 2: run 22's)")
    p.add_argument("--category", help="only train tasks of this category (task.toml), e.g. git")
    p.add_argument("--task", action="append", default=[], metavar="ID", help="these tasks instead (repeatable)")
    p.add_argument("--repeats", type=int, default=4, help="sampling seeds per failed task (default 4)")
    p.add_argument("--temperature", type=float, default=1.0, help="of the repeats (default 1.0, explore's)")
    p.add_argument("--model", default=bench.DEFAULT_MODEL, help=f"the agent (default {bench.DEFAULT_MODEL})")
    p.add_argument("--against", choices=["plain", "note"], default="plain",
                   help="the other attempt of each pair: no note (default), or the note without the line on "
                        "missing programs")
    return p.parse_args(argv)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - half) / (1 + z * z / n)), min(1.0, (centre + half) / (1 + z * z / n))


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided binomial p of `better` against `worse` discordant pairs at one half."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def repeat_seed(seed: int, repeat: int) -> int:
    return int(hashlib.sha256(f"reflect-probe-{seed}-{repeat}".encode()).hexdigest()[:8], 16)


def train_split(out: Path, seed: int, model: str):
    """The learning-curve benchmark's settings and config at its defaults (the model and split
    given), and the train tasks of that split: what a probe of the train side starts from."""
    s = bench.settings(bench.parse_args(["--out", str(out), "--seed", str(seed), "--model", model]))
    bench.check_model(s["model"])
    config = bench.build_config(s, out)
    train, _ = split_suite(load_suite(Path(s["suite"])), config.holdout_ratio, config.seed)
    return s, config, train


def probe(args: argparse.Namespace) -> dict:
    if args.repeats < 1 or not 0 < args.temperature <= 2:
        raise UserError("--repeats must be at least 1 and --temperature above 0 and at most 2")
    out = args.out.resolve()
    s, config, train = train_split(out, args.seed, args.model)
    if args.task:
        unknown = sorted(set(args.task) - {t.id for t in train})
        if unknown:
            raise UserError(f"--task: not a train task of split {args.seed}: {', '.join(unknown)}")
    tasks = [t for t in train if (not args.task or t.id in args.task)
             and (not args.category or t.category == args.category)]
    if not tasks:
        raise UserError(f"no train task of split {args.seed} is of category {args.category!r}")
    provider = make_provider(config.sandbox)
    llm = make_llm(config.models.agent, Accounting(config.limits), role="agent")

    def attempts(label: str, chosen, temperature: float | None, seed: int | None, notes: dict[str, str]):
        c = config.model_copy(deep=True)
        if temperature is not None:
            c.models.agent.temperature, c.models.agent.seed = temperature, seed
        agent = build_agent("llm", c, workspace=bench.SEED_WORKSPACE, trajectories_dir=out / label / "trajectories",
                            llm=llm, notes=notes)
        print(f"{label}: {len(chosen)} attempt(s)", flush=True)
        results = run_batch(chosen, agent, provider, out / label / "results", workers=1)
        return {r.task_id: r for r in results}

    batch = attempts("batch", tasks, None, None, {})
    failed = [t for t in tasks if not batch[t.id].passed]
    notes = {t.id: note for t in failed if batch[t.id].trajectory_path
             and (note := reflection(batch[t.id].trajectory_path, Programs.from_dict(batch[t.id].programs)))}
    against = {} if args.against == "plain" else {
        t.id: note for t in failed if batch[t.id].trajectory_path and (note := reflection(batch[t.id].trajectory_path))}
    rows = {t.id: {"batch": bool(batch[t.id].passed), "note": notes.get(t.id), "plain": [], "reflected": []}
            for t in tasks}
    for repeat in range(args.repeats):
        seed = repeat_seed(args.seed, repeat)
        plain = attempts(f"r{repeat}/{'plain' if args.against == 'plain' else 'note-only'}", failed,
                         args.temperature, seed, against)
        noted = attempts(f"r{repeat}/reflected", failed, args.temperature, seed, notes)
        for t in failed:
            rows[t.id]["plain"].append(bool(plain[t.id].passed))
            rows[t.id]["reflected"].append(bool(noted[t.id].passed))
    pairs = [(p, r) for t in failed for p, r in zip(rows[t.id]["plain"], rows[t.id]["reflected"], strict=True)]
    n = len(pairs)
    plain_k, reflected_k = sum(p for p, _ in pairs), sum(r for _, r in pairs)
    better, worse = sum(r and not p for p, r in pairs), sum(p and not r for p, r in pairs)
    # The repeats of one task are not independent (in the 2026-11-29 probes every task gave one outcome
    # in all its repeats):
    # the task is the unit that varies, so the test by task is the one to trust.
    gains = [sum(rows[t.id]["reflected"]) - sum(rows[t.id]["plain"]) for t in failed]
    tasks_better, tasks_worse = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    return {"settings": {"seed": args.seed, "category": args.category, "tasks": [t.id for t in tasks],
                         "repeats": args.repeats, "temperature": args.temperature, "model": args.model,
                         "against": args.against},
            "tasks": rows, "failed": len(failed), "pairs": n,
            "plain": {"passed": plain_k, "interval": wilson(plain_k, n)},
            "reflected": {"passed": reflected_k, "interval": wilson(reflected_k, n)},
            "reflected_only": better, "plain_only": worse, "sign_test_p": sign_test(better, worse),
            "tasks_better": tasks_better, "tasks_worse": tasks_worse,
            "task_sign_test_p": sign_test(tasks_better, tasks_worse)}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        result = probe(args)
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    write_json_atomic(args.out.resolve() / "results.json", result)
    other = "plain" if result["settings"]["against"] == "plain" else "note-only"  # the pairs' first arm
    for task, row in result["tasks"].items():
        if row["batch"]:
            print(f"{task:28s} batch passed")
            continue
        print(f"{task:28s} {other} {sum(row['plain'])}/{len(row['plain'])}  reflected "
              f"{sum(row['reflected'])}/{len(row['reflected'])}")
    n = result["pairs"]
    for key, arm in (("plain", other), ("reflected", "reflected")):
        k, (low, high) = result[key]["passed"], result[key]["interval"]
        print(f"{arm:9s} {k}/{n} passed, 95% [{low:.0%}, {high:.0%}]")
    print(f"discordant pairs: reflected only {result['reflected_only']}, {other} only {result['plain_only']}; "
          f"exact sign test p = {result['sign_test_p']:.3g} (pairs of one task are not independent)")
    print(f"by task: {result['tasks_better']} of {result['failed']} passed more often reflected, "
          f"{result['tasks_worse']} less; exact sign test p = {result['task_sign_test_p']:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
