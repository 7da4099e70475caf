"""`adaptive-skill judge TRAJ.json --task TASK_DIR`: the label-free judge's verdict on one trajectory.

The judge sees the task's instruction and the compressed trajectory, never the task's tests.
Prints the verdict as JSON; a judge that fails after its retries prints a judge_error and exits 1.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adaptive_skill.commands.common import add_config_args


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("judge", help="estimate from a trajectory alone whether its task was solved")
    parser.add_argument("path", metavar="TRAJ.json", help="a saved trajectory, or a JSON list of chat messages")
    parser.add_argument("--task", required=True, metavar="TASK_DIR", help="the task the trajectory attempted")
    parser.add_argument("--model", "-m", help="the judge's model (default: models.judge.model from the config)")
    parser.add_argument("--cache", metavar="DIR", help="reuse and store verdicts in DIR (keyed by content)")
    add_config_args(parser, "judge.pass_threshold=6")
    parser.set_defaults(handler=judge_cmd)


def judge_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.observe.judge import Judge, Verdict
    from adaptive_skill.tasks import load_task
    from adaptive_skill.trajectory import load_view

    if args.model:
        args.overrides = [*args.overrides, f"models.judge.model={args.model}"]
    config = load_config_from_args(args)
    view = load_view(args.path)  # bad input fails before any model is loaded
    task = load_task(Path(args.task))
    llm = make_llm(config.models.judge, Accounting(config.limits), role="judge")
    judge = Judge(llm, config.judge, Path(args.cache) if args.cache else None)
    result = judge.judge(task.instruction, view, task_id=task.id)
    print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    return 0 if isinstance(result, Verdict) else 1
