"""`adaptive-skill judge TRAJ.json --task-dir DIR`: the label-free judge's verdict on one trajectory.

The judge sees the task's instruction and the compressed trajectory, never the task's tests.
Prints the verdict (text, or JSON with --format json); a judge that fails after its retries prints a
judge_error and exits 1.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adaptive_skill.commands.common import OldOption, add_config_args, add_format_arg, require


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "judge", help="estimate from a trajectory alone whether its task was solved",
        description="""The label-free judge (models.judge) on one trajectory: it reads the task's instruction
                    and the compressed trajectory, never the task's tests, and gives a score from 0 to 10,
                    the task's category, what the agent did and what stands between it and a solved task
                    (docs/observe.md). TRAJ.json is a saved trajectory, as `adaptive-skill solve` prints its
                    path (runs/<id>/cycles/<n>/solve/trajectories/<task>.json in a run). Exit code 1 when the
                    judge gave no valid verdict after its retries (a judge_error).""",
        epilog="""examples:
  adaptive-skill judge count-log-lines.json --task-dir benchmarks/terminal-easy/count-log-lines
  adaptive-skill judge count-log-lines.json --task-dir benchmarks/terminal-easy/count-log-lines --format json""")
    parser.add_argument("path", metavar="TRAJ.json", help="a saved trajectory, or a JSON list of chat messages")
    require(parser, parser.add_argument("--task-dir", metavar="DIR",
                                        help="the directory of the task the trajectory attempted"))
    parser.add_argument("--task", dest="task_dir", action=OldOption, replaced_by="--task-dir DIR")
    parser.add_argument("--model", "-m", help="the judge's model (default: models.judge.model from the config)")
    parser.add_argument("--cache", metavar="DIR", help="reuse and store verdicts in DIR (keyed by content)")
    add_format_arg(parser, ("text", "json"), "text (default): the score, whether that is a pass, the outcome "
                                             "and the failure reason; json: the verdict")
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
    task = load_task(Path(args.task_dir))
    llm = make_llm(config.models.judge, Accounting(config.limits), role="judge")
    judge = Judge(llm, config.judge, Path(args.cache) if args.cache else None)
    result = judge.judge(task.instruction, view, task_id=task.id)
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(verdict_text(result, config.judge.pass_threshold), end="")
    return 0 if isinstance(result, Verdict) else 1


def verdict_text(result, threshold: float) -> str:
    """A verdict (or a judge error) as a person reads it; what the model wrote is one printable line each."""
    from adaptive_skill.observe.judge import Verdict
    from adaptive_skill.progress import printable_line

    task = result.task_id or "the trajectory"
    if not isinstance(result, Verdict):
        return f"{task}: judge error: {printable_line(result.reason, 2000)}\n"
    solved = "likely solved" if result.likely_solved(threshold) else "likely not solved"
    lines = [f"{task}: score {result.score:g}/10, {solved} (pass threshold {threshold:g}); category "
             f"{result.category}" + ("; a cached verdict" if result.cached else ""),
             f"outcome: {printable_line(result.outcome, 2000)}"]
    if result.failure_reason:
        lines.append(f"failure reason: {printable_line(result.failure_reason, 2000)}")
    return "\n".join(lines) + "\n"
