"""`adaptive-skill replay --run DIR --tag evo-N [--against evo-M]`: re-run a tag's holdout gate, round by
round with the recorded seeds, and say whether the recorded decision would stand."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_format_arg, add_quiet_arg, add_run_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help="re-run a tag's holdout gate and say whether its decision stands",
        description="""Re-run the holdout gate of a tag, round by round with the seeds its gate used, against
                    the workspace it was compared with, until the gate's rule decides; say whether the
                    recorded decision would stand. The new attempts go to DIR/replays/.""",
        epilog="""examples:
  adaptive-skill replay --run runs/20250101-220000-ab12cd --tag evo-3
  adaptive-skill replay --run runs/20250101-220000-ab12cd --tag evo-3 --set gating.max_rounds=10""")
    add_run_arg(parser, "the run directory whose tag to replay")
    parser.add_argument("--tag", required=True, metavar="TAG", help="the tag whose gate to replay, e.g. evo-3")
    parser.add_argument("--against", metavar="TAG",
                        help="the workspace to compare with (default: the one its gate compared it with)")
    parser.add_argument("--config", "-c", metavar="FILE", help="config to replay with (default: the run's own)")
    add_config_args(parser, "gating.max_rounds=10", with_file=False)
    add_format_arg(parser, ("text", "json"), "text (default): a table of the rounds; json: the replay's report",
                   json_flag=True)
    add_quiet_arg(parser)
    parser.set_defaults(handler=replay_cmd)


def replay_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.engine.gate_replay import replay

    report = replay(Path(args.run), args.tag, args.against, Path(args.config) if args.config else None,
                    args.overrides, quiet=args.quiet)
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    replayed, recorded = report["replayed"], report["recorded"]
    table = Table(title=f"holdout gate of {report['tag']} against {str(report['against'])[:12]}: "
                        "per round baseline / mutated (0-1)")
    table.add_column("task")
    rounds = max(replayed["rounds"], recorded["rounds"] or 0) if recorded else replayed["rounds"]
    for r in range(rounds):
        table.add_column(f"r{r + 1} recorded" if recorded else f"r{r + 1}", justify="right")
        if recorded:
            table.add_column(f"r{r + 1} replayed", justify="right")

    def cell(scores: list[dict], r: int, task: str) -> str:
        pair = scores[r].get(task) if r < len(scores) else None
        return "" if not pair else " / ".join("-" if v is None else f"{v:g}" for v in pair)

    for task in report["tasks"]:
        row = [task]
        for r in range(rounds):
            if recorded:
                row.append(cell(recorded["round_scores"], r, task))
            row.append(cell(replayed["round_scores"], r, task))
        table.add_row(*row)
    console = Console()
    console.print(table)
    console.print(f"replayed: {replayed['verdict']} after {replayed['rounds']} round(s): {replayed['reason']}")
    if recorded:
        console.print(f"recorded (cycle {report['cycle']}): {recorded['verdict']} after {recorded['rounds']} "
                      f"round(s): {recorded['reason']}")
        console.print("the decision stands" if report["stands"] else "the decision would NOT stand")
    return 0
