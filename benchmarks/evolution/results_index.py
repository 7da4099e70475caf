"""The table of every kept learning-curve record, written into docs/results.md from the records.

    python benchmarks/evolution/results_index.py            # rewrite the table in docs/results.md
    python benchmarks/evolution/results_index.py --check    # exit 1 when the page's table is stale
    python benchmarks/evolution/results_index.py --print    # the table on stdout, nothing written
    python benchmarks/evolution/results_index.py --pool curve-26 curve-27   # records of several splits pooled
    python benchmarks/evolution/results_index.py --versus curve-27-fresh:evo1-27 curve-27-fresh:seed  # two workspaces
    python benchmarks/evolution/results_index.py --versus curve-28:gate curve-28:seed  # a rejected gate candidate

One row per `benchmarks/evolution/results/curve-*/` (a curve's output directory kept in the repo):
whether labels reached evolution, the split, the seed's passes per repeat, each cycle's gate
decision, each accepted tag against the seed (paired over tasks, 95% bootstrap interval, the same
interval the curve prints), whether those rounds were the gate's or fresh seeds, the gain on holdout
tasks with a twin in train and on the others, the label-free estimate's precision per task (Wilson
95%) and recall read against the tests afterwards (votes.jsonl), the wall time, and the code and
load it ran on (results.json's provenance, recorded since 2026-12-03). Every figure
comes from results.json and votes.jsonl; nothing is typed. The table sits between the two markers
below in docs/results.md; tests/test_docs.py fails when it differs from what this script writes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from vote_precision import summary as vote_summary  # noqa: E402

RECORDS = HERE / "results"
PAGE = ROOT / "docs" / "results.md"
SUITE = ROOT / "benchmarks" / "terminal-easy"
BEGIN = "<!-- records table: written by benchmarks/evolution/results_index.py, do not edit -->"
END = "<!-- end of records table -->"


def _points(ci: dict | None) -> str:
    if not ci or ci.get("mean") is None:
        return "n/a"
    return f"{_signed(ci['mean'])} [{_signed(ci['low'])}, {_signed(ci['high'])}]"


def _signed(x: float) -> str:
    text = f"{100 * x:+.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def _passes(scores: dict[str, list[float]]) -> str:
    repeats = max((len(v) for v in scores.values()), default=0)
    return ", ".join(f"{sum(1 for v in scores.values() if len(v) > r and v[r] is not None and v[r] >= 1.0)}"
                     f"/{len(scores)}" for r in range(repeats))


def _minutes(*secs: float | None) -> str:
    total = sum(s for s in secs if s)
    return f"{int(total // 3600)} h {int(total % 3600 // 60):02d} min" if total else "n/a"


def _ran(results: dict) -> str:
    """The code and the load the record says it ran on (curve/provenance.py), or that it does not say."""
    sessions = [one for many in (results.get("provenance") or {}).values() for one in many]
    if not sessions:
        return "not recorded"
    commits = sorted({(one.get("code") or {}).get("commit") or "unknown" for one in sessions})
    dirty = any((one.get("code") or {}).get("dirty") for one in sessions)
    loads = [(one.get("load") or {}) for one in sessions]
    samples = sum(x.get("samples") or 0 for x in loads)
    mean = sum((x.get("mean") or 0) * (x.get("samples") or 0) for x in loads) / samples if samples else None
    peak = max((x.get("max") or 0 for x in loads), default=0)
    cpus = sorted({str((one.get("machine") or {}).get("cpus", "?")) for one in sessions})
    load = "load unknown" if mean is None else f"load {mean:.1f} mean, {peak:.1f} max on {'/'.join(cpus)} CPUs"
    return f"{', '.join(c[:7] for c in commits)}{' (with changes)' if dirty else ''}; {load}"


def _twins(results: dict) -> dict | None:
    if "twins" in results:
        return results["twins"]
    from adaptive_skill.curve.summary import twins_of  # a results.json written before it had them

    return twins_of({**results, "settings": {**results["settings"], "suite": str(SUITE)}})


def row(folder: Path) -> str:
    """One Markdown row for a kept curve record."""
    results = json.loads((folder / "results.json").read_text())
    s = results["settings"]
    labels = "yes" if s.get("labels") else "no"
    decisions = []
    for c in results.get("cycles") or []:
        llr = re.search(r"LLR ([+-][\d.]+)", c.get("reason") or "")  # a gate per skill: the whole's
        verdict = "accepted" if c.get("accepted") else "rejected"
        name = c.get("tag") or f"cycle {c['cycle']}"
        skills = len(c.get("skills_kept") or []) + len(c.get("skills_dropped") or [])
        per_skill = f"per skill, {len(c.get('skills_kept') or [])} of {skills} skills kept; " if skills else ""
        whole = "the whole candidate's " if per_skill else ""
        decisions.append(f"{name} {verdict}" + (f" ({per_skill}{whole}LLR {llr.group(1)})" if llr else ""))
    tags = results["curve"][1:] + (results.get("workspaces") or [])  # accepted tags, other workspaces
    # before curve.first_round (2026-12-02) results.json had no `rounds`: a tag's repeats were its gate's
    rounds = "n/a" if not tags else "fresh seeds" if (results.get("rounds") or {}).get("fresh") else "the gate's"
    if not decisions and rounds == "the gate's":  # a candidate measured apart, on the rounds its gate would use
        decisions = [f"{w['label']}: {gate_on(results['seed']['scores'], w['scores'], s)}"
                     for w in results.get("workspaces") or []]
    gains = "; ".join(f"{t['label']} {_points(t['vs_seed'])}" for t in tags) or "no tag"
    twins = _twins(results)
    apart = "n/a"
    if twins and tags:
        by = {r["label"]: r for r in twins["rows"]}
        t = by.get(tags[-1]["label"])
        if t:
            apart = (f"{_points(t['on_twins']['vs_seed'])} ({len(twins['twins'])}) / "
                     f"{_points(t['on_others']['vs_seed'])} ({len(twins['others'])})")
    estimate = "n/a (labels)" if s.get("labels") else "n/a (no evolve run)" if results.get("evolve") is None \
        else "n/a (no votes.jsonl)"
    votes = folder / "votes.jsonl"
    if votes.is_file() and not s.get("labels"):
        told = vote_summary([json.loads(x) for x in votes.read_text().splitlines() if x.strip()])
        e = told["run_estimate_per_task"]
        if e.get("precision") is not None:
            low, high = e["precision_interval"]
            estimate = (f"{100 * e['precision']:.0f}% [{100 * low:.0f}, {100 * high:.0f}] "
                        f"({e['fp']} wrong of {e['tp'] + e['fp']}), recall {100 * e['recall']:.0f}%")
        if told.get("confirm"):  # explore.confirm_model: which of the vote's counts the other model kept
            k = told["confirm"]
            estimate += (f"; {', '.join(k['model'])} kept {k['kept']} of the vote's {k['vote_counted']} "
                         f"({k['vote_counted_wrong']} wrong)")
    wall = _minutes((results.get("seed") or {}).get("wall_sec"), (results.get("evolve") or {}).get("wall_sec"),
                    *(w.get("wall_sec") for w in results.get("workspaces") or []))
    name = folder.name
    return (f"| [{name}](../benchmarks/evolution/results/{name}/) | {labels} | {s['seed']} "
            f"| {_passes(results['seed']['scores'])} | {'; '.join(decisions) or 'no evolve run'} | {gains} "
            f"| {rounds} | {apart} | {estimate} | {wall} | {_ran(results)} |")


def gate_on(seed: dict[str, list], candidate: dict[str, list], settings: dict) -> str:
    """What the gate (engine/sequential.py's sequential_decision, the engine's own) decides on a
    record's rounds: the seed as the baseline, `candidate` as the change, round r pairing each task's
    repeat r. The thresholds are the config defaults every shipped curve config keeps; min_rounds does
    not matter when all `gate_rounds` rounds are there. Recomputed from runs 25-27's records, it gives their
    gates' LLRs (tests/test_evolution_bench.py)."""
    from adaptive_skill.config import GatingConfig
    from adaptive_skill.engine.sequential import sequential_decision

    n = settings["gate_rounds"]
    if any(len(seed.get(t) or []) < n or len(candidate.get(t) or []) < n for t in seed):
        return f"fewer than the gate's {n} rounds"
    gating = GatingConfig(min_rounds=n, max_rounds=n)
    decision = sequential_decision([{t: (seed[t][r], candidate[t][r]) for t in seed} for r in range(n)], gating)
    llr = re.match(r"LLR ([+-][\d.]+)", decision.reason)
    verdict = "accepted" if decision.accepted else "rejected"
    return f"the gate would have {verdict} it" + (f" (LLR {llr.group(1)})" if llr else "")


def pooled(names: list[str], records: Path = RECORDS, seed: int = 0) -> dict:
    """Each record's last accepted tag against its seed, paired by task, pooled: the per-task
    differences of all the records together, one bootstrap over them (`seed`), as runs 19 and 20 were
    pooled. Records on the same split are not independent: pool records of different splits only. A
    task held out in two splits counts once per split (`distinct_tasks` says how many there are)."""
    from adaptive_skill.curve.stats import bootstrap_mean, task_means

    differences, parts, seen = [], [], set()
    for name in names:
        results = json.loads((records / name / "results.json").read_text())
        if len(results["curve"]) < 2:
            raise ValueError(f"{name}: no accepted tag to pool")
        tag, base = task_means(results["curve"][-1]["scores"]), task_means(results["seed"]["scores"])
        common = sorted(set(tag) & set(base))
        differences += [tag[t] - base[t] for t in common]
        seen.update(common)
        parts.append({"record": name, "split": results["settings"]["seed"], "tag": results["curve"][-1]["label"],
                      "tasks": len(common), "labels": bool(results["settings"].get("labels"))})
    splits = [p["split"] for p in parts]
    if len(set(splits)) < len(splits):
        raise ValueError(f"records on the same split are not independent: splits {splits}")
    return {"records": parts, "tasks": len(differences), "distinct_tasks": len(seen),
            "vs_seed": bootstrap_mean(differences, seed=seed).to_dict(),
            "better": sum(d > 0 for d in differences), "worse": sum(d < 0 for d in differences)}


def _scores_of(name: str, label: str, records: Path) -> tuple[dict, dict]:
    """A record's results.json and the scores of its workspace or tag `label` ("seed" for the seed)."""
    results = json.loads((records / name / "results.json").read_text())
    if label == "seed":
        return results, results["seed"]["scores"]
    if label == "gate":
        return results, _gate_candidate(name, results, records)
    for row in results["curve"][1:] + (results.get("workspaces") or []):
        if row["label"] == label:
            return results, row["scores"]
    found = ", ".join(["seed", *(r["label"] for r in results["curve"][1:] + (results.get("workspaces") or [])),
                       *(["gate"] if (records / name / "gate.json").is_file() else [])])
    raise ValueError(f"{name}: no workspace {label!r} (it has: {found})")


def _gate_candidate(name: str, results: dict, records: Path) -> dict:
    """The scores of the candidate a record's gate measured (gate.json, kept where the gate rejected it
    and no tag holds it): round r of the gate is the curve's round r, so they pair with the record's
    seed, which is checked: the gate's baseline must be the seed's scores, attempt for attempt."""
    path = records / name / "gate.json"
    if not path.is_file():
        raise ValueError(f"{name}: no gate.json, so no gate candidate")
    rounds = json.loads(path.read_text())["round_scores"]  # [{task: [baseline, candidate]}] per round
    seed = results["seed"]["scores"]
    if any(set(r) != set(seed) for r in rounds) or any(
            [r[t][0] for r in rounds] != seed[t][:len(rounds)] for t in seed):
        raise ValueError(f"{name}: the gate's baseline is not the seed's scores: its rounds do not pair")
    return {t: [r[t][1] for r in rounds] for t in seed}


def versus(one: str, other: str, records: Path = RECORDS, seed: int = 0) -> dict:
    """Two workspaces measured on the same split and sampling rounds, paired by task (one - other):
    each RECORD:LABEL, from one record or two. Records on other splits, suites, models, settings of
    the agent or rounds are refused: their rows are not pairs. The same bootstrap as the curve's."""
    from adaptive_skill.curve.stats import paired_difference, task_means

    sides = []
    for spec in (one, other):
        name, sep, label = spec.partition(":")
        if not sep or not name or not label:
            raise ValueError(f"{spec!r}: want RECORD:LABEL, e.g. curve-27-fresh:evo1-27")
        results, scores = _scores_of(name, label, records)
        keys = ("seed", "model", "holdout_ratio", "repeats", "temperature", "max_steps", "skill_in_prompt")
        same = {k: results["settings"].get(k) for k in keys}
        same["first_round"] = (results.get("rounds") or {}).get("first", 0)
        sides.append((spec, same, scores))
    if sides[0][1] != sides[1][1]:
        differ = [k for k in sides[0][1] if sides[0][1][k] != sides[1][1][k]]
        raise ValueError(f"{one} and {other} differ in {', '.join(differ)}: not paired")
    a, b = sides[0][2], sides[1][2]
    if set(a) != set(b):
        raise ValueError(f"{one} and {other} hold other holdout tasks: not paired")
    ma, mb = task_means(a), task_means(b)
    return {"one": one, "other": other, "tasks": len(set(ma) & set(mb)),
            "passes": {one: _passes(a), other: _passes(b)},
            "difference": paired_difference(a, b, seed=seed).to_dict(),
            "better": sorted(t for t in ma if t in mb and ma[t] > mb[t]),
            "worse": sorted(t for t in ma if t in mb and ma[t] < mb[t])}


def table(records: Path = RECORDS) -> str:
    rows = [row(f) for f in sorted(records.glob("curve-*"), key=lambda p: (len(p.name), p.name))
            if (f / "results.json").is_file()]
    head = ("| record | labels | split | seed, passes per repeat | gate | tag vs seed, points paired [95%] "
            "| rounds | twins (n) / others (n), points | estimate, per task | wall | code; load |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    return "\n".join([BEGIN, "", head, *rows, "", END])


def splice(page: str, block: str) -> str:
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{PAGE}: the markers of the records table are missing")
    return page[:start] + block + page[end + len(END):]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 when docs/results.md's table is stale")
    p.add_argument("--print", dest="show", action="store_true", help="print the table, write nothing")
    p.add_argument("--pool", nargs="+", metavar="RECORD", help="pool these records' tag-vs-seed differences")
    p.add_argument("--versus", nargs=2, metavar="RECORD:LABEL", help="two workspaces on the same split and "
                   "rounds, paired by task (the first minus the second); LABEL a workspace's label or seed")
    p.add_argument("--seed", type=int, default=0, help="with --pool or --versus: the bootstrap's seed (default 0)")
    args = p.parse_args(argv)
    if args.versus:
        try:
            print(json.dumps(versus(*args.versus, seed=args.seed), indent=1))
        except (OSError, KeyError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.pool:
        try:
            print(json.dumps(pooled(args.pool, seed=args.seed), indent=1))
        except (OSError, KeyError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    block = table()
    if args.show:
        print(block)
        return 0
    try:
        page = PAGE.read_text()
        new = splice(page, block)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if new != page:
            print(f"{PAGE}: the records table is stale: run python benchmarks/evolution/results_index.py",
                  file=sys.stderr)
            return 1
        return 0
    if new != page:
        PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
