"""The agent protocol probe: what a model's replies look like over real attempts, per 100 replies.

    python benchmarks/probes/agent_probe.py --out DIR [--model M] [--protocol tools|text] [--demo on|off]
        [--tasks train|holdout|ID,ID,...] [--count N] [--seeds 1,2] [--max-steps 6] [--max-tokens T]
        [--temperature 0.3]
    python benchmarks/probes/agent_probe.py --out DIR --report      # the figures of a finished DIR again

Runs the agent (the product's own: harness, Docker sandbox, verifier) on terminal-easy tasks, once per
seed, with the seed workspace, and reads every reply back from the saved trajectories. Per 100
replies it counts:

  cut        the reply reached a bound of its grammar (all its reasoning lines, a line's or the
             command's length) or the token limit: the model was stopped, not finished
  malformed  the reply could not be used (a format error the agent answered with a reminder)
  prose      a bash command that is prose: exit 127 "command not found" on a capitalised word or a
             sentence ("The task is done.")
  copies     the protocol's own text replayed: the worked example's task, commands or answers, or a
             placeholder of the help (`<one shell command>`), in a command or submit
  early      a submit before any command (refused by limits.submit_after_commands)

and the verifier's pass rate, the median seconds per attempt and per reply. The tasks default to the
a fixed sample of N tasks of the learning-curve benchmark's train split (seed 0, holdout_ratio 0.15), never its holdout:
the protocol is chosen on tasks the curve is not measured on. Results land in DIR (one run per seed,
resumable: finished attempts are kept) and DIR/probe.json; docs/llm.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.agent.loop import EARLY_SUBMIT  # noqa: E402

SUITE = ROOT / "benchmarks" / "terminal-easy"
WORKSPACE = ROOT / "workspace"
# What only the worked example says (agent/protocol.py, TEXT_PROTOCOL_DEMO): seen in a reply, it is a copy.
DEMO_MARKS = ("/tmp/kernel.txt", "kernel release", "New task", "Print the version of Python", "Python 3.11.2",
              # the placeholders an earlier protocol help showed inside each block, and the like
              "<one shell command>", "<the name of a skill", "<one line on what you did", "# Your next command")
_PROSE_WORD = re.compile(r"^[A-Z][a-z]+,?$")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    p.add_argument("--protocol", choices=["auto", "tools", "text"], default="auto")
    p.add_argument("--demo", choices=["auto", "on", "off"], default="auto")
    p.add_argument("--tasks", default="train", help="train (default), holdout, or task ids separated by commas")
    p.add_argument("--count", type=int, default=12, help="tasks taken from the split (default 12)")
    p.add_argument("--seeds", default="1,2")
    p.add_argument("--max-steps", type=int, default=6)
    p.add_argument("--max-tokens", type=int, default=None, help="the agent's max_tokens (default: the config's)")
    p.add_argument("--temperature", type=float, default=0.3)
    p.add_argument("--report", action="store_true", help="only print the figures of DIR")
    return p.parse_args(argv)


def config_for(args: argparse.Namespace, seed: int):
    from adaptive_skill.config import EvolveConfig

    agent = {"model": args.model, "temperature": args.temperature, "seed": seed, "protocol": args.protocol}
    if args.demo != "auto":
        agent["protocol_demo"] = args.demo == "on"
    if args.max_tokens:
        agent["max_tokens"] = args.max_tokens
    return EvolveConfig.model_validate({
        "holdout_ratio": 0.15, "seed": 0, "workers": 1,
        "paths": {"workspace": str(WORKSPACE), "suite": str(SUITE), "runs_dir": str(args.out)},
        "models": {"agent": agent}, "limits": {"max_steps": args.max_steps}})


def chosen_tasks(args: argparse.Namespace, config):
    from adaptive_skill.tasks.loader import load_suite
    from adaptive_skill.tasks.split import split_suite

    tasks = load_suite(SUITE)
    train, holdout = split_suite(tasks, config.holdout_ratio, config.seed)
    if args.tasks in ("train", "holdout"):  # a fixed sample across the categories
        pool = train if args.tasks == "train" else holdout
        return sorted(random.Random(0).sample(pool, min(args.count, len(pool))), key=lambda t: t.id)
    wanted = args.tasks.split(",")
    by_id = {t.id: t for t in tasks}
    missing = [w for w in wanted if w not in by_id]
    if missing:
        raise SystemExit(f"error: --tasks: no task {', '.join(missing)} in {SUITE}")
    return [by_id[w] for w in wanted]


def run(args: argparse.Namespace) -> None:
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.workspace import Workspace

    for seed in (int(s) for s in args.seeds.split(",")):
        config = config_for(args, seed)
        tasks = chosen_tasks(args, config)
        out = args.out / f"seed-{seed}"
        agent = build_agent("llm", config, workspace=Workspace(WORKSPACE).require(),
                            trajectories_dir=out / "trajectories")
        started = time.monotonic()

        def said(result, cached: bool, seed: int = seed) -> None:
            print(f"[probe] seed {seed} {result.task_id}: {'passed' if result.passed else 'failed'}"
                  f"{' (done before)' if cached else ''}", flush=True)

        run_batch(tasks, agent, make_provider(config.sandbox), out / "results", workers=1, on_result=said)
        print(f"[probe] seed {seed}: {len(tasks)} attempts in {time.monotonic() - started:.0f} s", flush=True)


# -- reading the replies back ----------------------------------------------------------------------

def classify(saved: dict, max_tokens: int) -> list[dict]:
    """One row per reply of a saved trajectory: which of the probe's kinds it is."""
    from adaptive_skill.llm.toolcalls import Bounds
    from adaptive_skill.trajectory.textproto import text_protocol_grammar

    messages = saved.get("messages") or []
    steps = {s.get("message_index"): s for s in saved.get("steps") or []}
    native = (saved.get("metadata") or {}).get("protocol") == "native"
    bounds = Bounds().fit(max_tokens)
    grammar = text_protocol_grammar(max_tokens=max_tokens)
    lines_max = int(re.search(r'\(line "\\n"\)\{0,(\d+)\}', grammar).group(1))
    units = int(re.search(r"unit\{0,(\d+)\}", grammar).group(1))
    body_max = int(re.search(r"visible body\{0,(\d+)\}", grammar).group(1))
    rows, commands = [], 0
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        step = steps.get(index) or {}
        content = message.get("content") or ""
        tool, argument = step.get("tool"), step.get("argument") or ""
        error = step.get("error") or ""
        if native:
            calls = message.get("tool_calls") or []
            raw_args = calls[0]["function"]["arguments"] if calls else ""
            cut = (len(content) >= bounds.reasoning_chars or len(raw_args) >= bounds.argument_chars + 10
                   or "cut off at the token limit" in error)
        else:
            reasoning = content.split("```")[0].splitlines()
            body = content.split("```")[1] if content.count("```") >= 2 else ""
            # a line at its unit bound, or every line used and the last one stopped mid-sentence
            forced_fence = (lines_max > 0 and len(reasoning) >= lines_max
                            and not reasoning[-1].rstrip().endswith((".", ":", "!", "?", "`", ")")))
            cut = (forced_fence or any(_units(line) >= units for line in reasoning)
                   or len(body.split("\n", 1)[-1]) >= body_max or "cut off at the token limit" in error
                   or "repeated the same text" in error)
        output = step.get("output") or ""
        first = argument.strip().split()[0] if argument.strip() else ""
        sentence = argument.rstrip().endswith(".") and len(argument.split()) >= 3
        prose = (tool == "bash" and step.get("exit_code") == 127 and "not found" in output
                 and (bool(_PROSE_WORD.match(first)) or sentence))
        copies = tool in ("bash", "submit") and any(mark in argument for mark in DEMO_MARKS)
        early = EARLY_SUBMIT in error
        rows.append({"cut": bool(cut), "malformed": error.startswith("format:"), "prose": prose, "copies": copies,
                     "early": early, "tool": tool, "argument": argument[:200], "content": content[:300],
                     "llm_sec": step.get("llm_duration_sec")})
        commands += tool == "bash"
    return rows


def _units(line: str) -> int:
    """A reasoning line's length in the grammar's units: a backtick and the character after it are one."""
    count, index = 0, 0
    while index < len(line):
        index += 2 if line[index] == "`" and index + 1 < len(line) else 1
        count += 1
    return count


def report(args: argparse.Namespace) -> dict:
    from adaptive_skill.files import read_json

    ran = read_json(args.out / "probe-args.json", None) or {}  # how the attempts were run
    for key in ("model", "protocol", "demo", "max_tokens"):
        if key in ran and (key != "max_tokens" or not args.max_tokens):
            setattr(args, key, ran[key])
    max_tokens = args.max_tokens or config_for(args, 1).models.agent.max_tokens
    rows, attempts, passed, seconds = [], 0, 0, []
    examples: dict[str, list[str]] = {}
    for seed_dir in sorted(args.out.glob("seed-*")):
        for path in sorted((seed_dir / "trajectories").glob("*.json")):
            saved = read_json(path, None)
            if not isinstance(saved, dict):
                continue
            task = saved.get("task_id") or path.stem
            result = read_json(seed_dir / "results" / f"{task}.json", None) or {}
            attempts += 1
            passed += bool(result.get("passed"))
            durations = result.get("durations") if isinstance(result.get("durations"), dict) else {}
            if isinstance(durations.get("agent"), int | float):
                seconds.append(durations["agent"])  # the attempt's agent time (model calls and commands)
            for row in classify(saved, max_tokens):
                rows.append(row)
                for kind in ("cut", "malformed", "prose", "copies", "early"):
                    if row[kind]:
                        examples.setdefault(kind, []).append(f"{task}: {row['content'][:160]!r}")
    n = len(rows)
    per100 = {kind: round(100 * sum(r[kind] for r in rows) / n, 1) if n else None
              for kind in ("cut", "malformed", "prose", "copies", "early")}
    reply_secs = [r["llm_sec"] for r in rows if isinstance(r["llm_sec"], int | float)]
    figures = {"model": args.model, "protocol": args.protocol, "demo": args.demo, "max_tokens": max_tokens,
               "attempts": attempts, "passed": passed, "replies": n, "per_100_replies": per100,
               "counts": {k: sum(r[k] for r in rows) for k in per100},
               "median_attempt_sec": round(statistics.median(seconds), 1) if seconds else None,
               "median_reply_sec": round(statistics.median(reply_secs), 1) if reply_secs else None,
               "examples": {k: v[:5] for k, v in examples.items()}}
    (args.out / "probe.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps({k: v for k, v in figures.items() if k != "examples"}))
    for kind, shown in figures["examples"].items():
        for line in shown:
            print(f"  {kind}: {line}")
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report:
        (args.out / "probe-args.json").write_text(json.dumps(
            {"model": args.model, "protocol": args.protocol, "demo": args.demo,
             "max_tokens": args.max_tokens or config_for(args, 1).models.agent.max_tokens}) + "\n")
        run(args)
    report(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
