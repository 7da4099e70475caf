"""`adaptive-skill solve --task-dir DIR`: one task, one LLM agent attempt, verified; prints the outcome
and where the trajectory is."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from adaptive_skill.commands.common import (
    add_config_args,
    add_format_arg,
    add_option_with_old_positional,
    add_quiet_arg,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve", help="run the LLM agent on one task and verify the result",
        description="""Run the LLM agent (models.agent, with a workspace's prompts and skills) on one task in its
                    sandbox, verify the result with the task's tests, and print the outcome and the path of
                    the saved trajectory (which `adaptive-skill judge` and `adaptive-skill trajectory` read).
                    To run a suite's tasks, or some of them by ID, use `adaptive-skill run --agent llm`.""",
        epilog="""examples:
  adaptive-skill solve --task-dir benchmarks/terminal-easy/count-log-lines --config configs/quickstart.yaml
  adaptive-skill solve --task-dir benchmarks/terminal-easy/count-log-lines --model local/qwen2.5-coder-1.5b -q""")
    add_option_with_old_positional(parser, ("--task-dir",), "TASK_DIR", "the task's directory", required=True,
                                   metavar="DIR",
                                   help="one task's directory, e.g. benchmarks/terminal-easy/count-log-lines")
    parser.add_argument("--model", "-m", help="the agent's model (default: models.agent.model from the config)")
    parser.add_argument("--workspace", "-w", metavar="DIR", help="workspace with prompts and skills "
                                                                  "(default: paths.workspace from the config)")
    parser.add_argument("--out", "-o", metavar="DIR", help="the directory to write: trajectories/ and results/ "
                                                            "(default runs/solve-<time>/)")
    add_format_arg(parser, ("text", "json"), "text (default): one line and the trajectory's path; json: the outcome",
                   json_flag=True)
    add_quiet_arg(parser)
    add_config_args(parser, "limits.max_steps=20")
    parser.set_defaults(handler=solve_cmd)


def solve_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.files import write_json_atomic
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.attempt import run_attempt
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.progress import BatchProgress
    from adaptive_skill.tasks import load_task
    from adaptive_skill.workspace import Workspace

    overrides = list(args.overrides)
    if args.model:
        overrides.append(f"models.agent.model={args.model}")
    args.overrides = overrides
    config = load_config_from_args(args)
    task = load_task(Path(args.task_dir))
    workspace = Workspace(Path(args.workspace) if args.workspace else config.paths.workspace).require()
    out = Path(args.out) if args.out else config.paths.runs_dir / f"solve-{time.strftime('%Y%m%d-%H%M%S')}"
    agent = build_agent("llm", config, workspace=workspace, trajectories_dir=out / "trajectories")
    with BatchProgress(f"{agent.name} on {task.id}", 1, quiet=args.quiet) as progress:
        progress.started(task.id)
        result = run_attempt(task, agent, make_provider(config.sandbox))
        progress.finished(task.id, result.passed, result.failure_mode or "")
    write_json_atomic(out / "results" / f"{task.id}.json", result.to_dict())
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2))
    else:
        verdict = "passed" if result.passed else f"failed ({result.failure_mode})"
        print(f"{task.id}: {verdict}; {result.detail.splitlines()[0] if result.detail else ''}")
        print(f"trajectory: {result.trajectory_path}")
    return 0
