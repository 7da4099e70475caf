"""`adaptive-skill run --suite DIR --agent oracle|nop`: a batch of attempts with results on disk."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_format_arg, add_quiet_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run an agent on a batch of tasks and verify the results")
    parser.add_argument("--suite", required=True, metavar="DIR", help="directory of tasks")
    parser.add_argument("--agent", default="oracle", choices=["oracle", "nop", "llm"],
                        help="which agent runs (llm: models.agent from the config)")
    parser.add_argument("--task", action="append", default=[], metavar="ID", help="only these tasks (repeatable)")
    parser.add_argument("--workers", type=int, default=2, metavar="N", help="attempts in parallel (default 2)")
    parser.add_argument("--out", "-o", metavar="DIR",
                        help="the directory to write, one result file per task; a re-run skips finished tasks "
                             "(--agent llm: the run's directory, default runs/run-<time>/)")
    add_format_arg(parser, ("text", "json"), "text (default): a table; json: results, refused tasks and a summary",
                   json_flag=True)
    add_quiet_arg(parser, "no progress output")
    add_config_args(parser, "sandbox.timeout_multiplier=2")
    parser.set_defaults(handler=run_cmd)


def run_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import REFUSED_EXIT, load_config_from_args, selected_tasks
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.progress import BatchProgress

    config = load_config_from_args(args)
    tasks, refused = selected_tasks(args, config.sandbox.timeout_multiplier)
    provider = make_provider(config.sandbox)
    out = Path(args.out) if args.out else None
    if args.agent == "llm":
        import time

        from adaptive_skill.workspace import Workspace

        out = out or config.paths.runs_dir / f"run-{time.strftime('%Y%m%d-%H%M%S')}"
        workspace = Workspace(config.paths.workspace).require()
        agent = build_agent("llm", config, workspace=workspace, trajectories_dir=out / "trajectories")
        out = out / "results"
    else:
        agent = build_agent(args.agent, config)

    with BatchProgress(f"{agent.name} on {len(tasks)} tasks", len(tasks), quiet=args.quiet) as progress:
        results = run_batch(
            tasks, agent, provider, out, workers=args.workers,
            on_start=lambda task: progress.started(task.id),
            on_result=lambda r, cached: progress.finished(
                r.task_id, r.passed, ("(already done) " if cached else "") + (r.failure_mode or "")))

    if args.format == "json":
        print(json.dumps({"results": [r.to_dict() for r in results], "refused": [r.to_dict() for r in refused],
                          "summary": summarise(results)}, indent=2))
    else:
        print_table(results)
    return REFUSED_EXIT if refused else 0


def summarise(results) -> dict:
    from collections import Counter

    return {"tasks": len(results), "passed": sum(r.passed for r in results),
            "failure_modes": dict(Counter(r.failure_mode for r in results if r.failure_mode))}


def print_table(results) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{sum(r.passed for r in results)}/{len(results)} passed")
    for column in ("task", "category", "passed", "reward", "failure mode", "seconds"):
        table.add_column(column)
    for r in results:
        table.add_row(r.task_id, r.category, "yes" if r.passed else "no",
                      "" if r.reward is None else f"{r.reward:g}", r.failure_mode or "",
                      f"{sum(r.durations.values()):.1f}")
    Console(file=sys.stdout).print(table)
