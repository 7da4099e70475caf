"""The evolver probe: what the structured evolver writes when shown the failures of real cycles.

    python benchmarks/probes/evolver_probe.py RUN [RUN ...] [--model M] [--max-tokens T] [--json out.json]
    python benchmarks/probes/evolver_probe.py --batches JUDGED.json [--batch 4] ...
    python benchmarks/probes/evolver_probe.py RUN --seeds 5 --temperature 0.7 [--allow-network] [--without-programs]
    python benchmarks/probes/evolver_probe.py RUN --seeds 5 --temperature 0.7 --samples 3
    python benchmarks/probes/evolver_probe.py RUN --seeds 5 --temperature 0.7 --demo on|off

RUN is an `evolve` run directory (runs/<id>, or a learning-curve benchmark's DIR/runs/evolve). For
every cycle whose observations hold a failure (RUN/cycles/NNN/observations), the structured evolver
(evolve/structured.py, with the current prompt, schema and rules) is asked its one question on a
scratch copy of the seed workspace (workspace/), exactly as the engine asks it, and its reply is
printed in full: the diagnosis, the skill, and whether the rules wrote or refused it (and why).
Whether a skill names the cause the failures share is a reader's judgement: docs/llm.md ("The
structured evolver") lists each reply with that judgement.

--batches takes the judge probe's output (benchmarks/probes/judge_probe.py --json: real attempts with real
verdicts) and cuts it into batches of --batch attempts in file order, each written as a cycle's
observations exactly as the engine writes them (observe/observations.py: signals, the compressed
trajectory, the verdict; no test result), so the evolver can be asked about more batches than the
runs at hand had cycles.

--seeds N --temperature T asks each question N times at sampling seeds 0..N-1 (--first-seed K:
K..K+N-1, to add replies to an earlier probe's): the spread of what the model writes for one
question, to compare two prompts on more than one reply each.
--demo on|off sends the worked example (an example question and its reply) before each question, or
not (models.evolver.evolver_demo); without it, as measured for the model (llm/local.py).
--allow-network asks as for a sandbox whose tasks may have a network (the question then does not
say the containers have none): the comparison for that sentence.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def questions(runs: list[Path]) -> list[Path]:
    """Observations folders of real cycles with at least one task."""
    found = []
    for run in runs:
        for observations in sorted(run.glob("cycles/*/observations")):
            if any(p.is_dir() for p in observations.iterdir()):
                found.append(observations)
    return found


def batches(judged: Path, size: int, root: Path) -> list[Path]:
    """Observations folders built from the judge probe's rows, `size` attempts each."""
    from adaptive_skill.observe import extract_signals
    from adaptive_skill.observe.compress import compress
    from adaptive_skill.observe.observations import ObservedItem, write_observations
    from adaptive_skill.tasks.loader import load_suite

    tasks = {t.id: t for t in load_suite(ROOT / "benchmarks" / "terminal-easy")}
    rows = [r for r in json.loads(judged.read_text())["rows"] if r.get("score") is not None]
    folders = []
    for start in range(0, len(rows) - size + 1, size):
        items, instructions = [], {}
        for row in rows[start:start + size]:
            trajectory = json.loads(Path(row["file"]).read_text())
            if row["task"] in instructions:
                continue  # one attempt per task in a batch, as in a cycle
            item = ObservedItem(task=row["task"], verdict={"score": row["score"], "category": "probe",
                                                           "outcome": row["outcome"],
                                                           "failure_reason": row["failure_reason"]},
                                signals=extract_signals(trajectory).to_dict(),
                                compressed=compress(trajectory, 2000).text)
            items.append(item)
            instructions[row["task"]] = tasks[row["task"]].instruction
        folder = root / "cycles" / f"{len(folders) + 1:03d}" / "observations"
        write_observations(folder, items, instructions, labels=None)
        folders.append(folder)
    return folders


def main(argv: list[str] | None = None) -> int:
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.evolve.structured import StructuredEvolver
    from adaptive_skill.llm import Accounting
    from adaptive_skill.llm.factory import make_llm

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("runs", nargs="*", type=Path)
    p.add_argument("--batches", type=Path, help="the judge probe's --json output, cut into batches")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    p.add_argument("--max-tokens", type=int, default=1024)
    p.add_argument("--json", type=Path)
    p.add_argument("--allow-network", action="store_true",
                   help="ask as for a sandbox with sandbox.allow_network on (the question then does not say "
                        "the containers have no network)")
    p.add_argument("--without-programs", action="store_true",
                   help="hide the tasks' programs.json: the question names no program the containers have")
    p.add_argument("--samples", type=int, default=1, help="evolver.samples: fresh questions until one is written")
    p.add_argument("--demo", choices=("on", "off"), help="the worked example first, or not (default: the model's own)")
    p.add_argument("--seeds", type=int, default=1,
                   help="ask each question this many times, sampling seeds 0..N-1 (needs --temperature > 0)")
    p.add_argument("--first-seed", type=int, default=0, help="seeds K..K+N-1 instead of 0..N-1 (more of the same)")
    p.add_argument("--temperature", type=float, default=0.0, help="the evolver's sampling (default 0, the engine's)")
    args = p.parse_args(argv)
    if args.seeds > 1 and args.temperature <= 0:
        p.error("--seeds > 1 needs --temperature > 0: at temperature 0 every seed gives the same reply")
    if args.samples > 1 and args.temperature <= 0:
        p.error("--samples > 1 needs --temperature > 0: at temperature 0 every sample is the same reply")
    scratch_root = Path(tempfile.mkdtemp(prefix="evolver-probe-batches-"))
    found = questions(args.runs) + (batches(args.batches, args.batch, scratch_root) if args.batches else [])
    rows = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        config = EvolveConfig.model_validate({
            "evolver": {"mode": "structured", "samples": args.samples}, "max_skills": 5, "seed": seed,
            "sandbox": {"allow_network": args.allow_network},
            "models": {"evolver": {"model": args.model, "max_tokens": args.max_tokens,
                                   "temperature": args.temperature, "seed": seed,
                                   **({"evolver_demo": args.demo == "on"} if args.demo else {})}}})
        accounting = Accounting()

        def sampler(sample_seed, config=config, accounting=accounting):
            return make_llm(config.models.evolver.model_copy(update={"seed": sample_seed}), accounting, "evolver")

        evolver = StructuredEvolver(make_llm(config.models.evolver, accounting, "evolver"), config,
                                    accounting=accounting, sampler=sampler)
        rows += ask(evolver, found, seed, without_programs=args.without_programs)
    written = sum(r["status"] == "submitted" for r in rows)
    print(json.dumps({"questions": len(rows), "written": written,
                      "statuses": {s: sum(r["status"] == s for r in rows) for s in {r["status"] for r in rows}}}))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


def ask(evolver, found: list[Path], seed: int, *, without_programs: bool = False) -> list[dict]:
    from adaptive_skill.evolve.prompts import DEMO_REPLY
    from adaptive_skill.observe.observations import PROGRAMS

    demo = json.dumps(DEMO_REPLY)

    rows = []
    for observations in found:
        with tempfile.TemporaryDirectory(prefix="evolver-probe-") as scratch:
            workspace = Path(scratch) / "workspace"
            shutil.copytree(ROOT / "workspace", workspace)
            shown = observations
            if without_programs:
                shown = Path(scratch) / "observations"
                shutil.copytree(observations, shown, ignore=shutil.ignore_patterns(PROGRAMS))
            started = time.monotonic()
            outcome = evolver.evolve(workspace, shown, Path(scratch) / "out")
            seconds = time.monotonic() - started
            record = json.loads((Path(scratch) / "out" / "evolver.json").read_text())
            extras = sorted((Path(scratch) / "out").glob("evolver-sample-*.json"))
            for extra in extras:  # the further samples' exchanges, after the first's
                record["messages"] += json.loads(extra.read_text())["messages"][1:]
        replies = [m["content"] for m in record["messages"] if m["role"] == "assistant" and m["content"] != demo]
        row = {"cycle": str(observations.parent), "seed": seed, "programs": not without_programs,
               "demo": record["metadata"].get("demo", False),
               "status": outcome.status, "samples_asked": 1 + len(extras),
               "summary": outcome.summary, "seconds": round(seconds, 1), "replies": replies,
               "violations": [v.message for v in outcome.violations], "errors": record["metadata"]["errors"]}
        rows.append(row)
        print(f"== {observations.parent}, seed {seed} ({seconds:.0f} s): {outcome.status}")
        print(record["instruction"].split("\n\nSkills now:")[0])
        for reply in replies:
            print("-> " + reply)
        for problem in row["violations"] + row["errors"]:
            print("   refused: " + problem[:300])
        print(flush=True)
    return rows


if __name__ == "__main__":
    sys.exit(main())
