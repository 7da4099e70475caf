"""`adaptive-skill replay --run RUN --tag evo-N [--against evo-M]`: re-run a tag's holdout evaluation."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="re-run the holdout evaluation of a tagged workspace")
    parser.add_argument("--run", required=True, metavar="RUN_DIR")
    parser.add_argument("--tag", required=True, metavar="TAG", help="e.g. evo-3")
    parser.add_argument("--against", metavar="TAG", help="replay this tag too and compare")
    parser.add_argument("--config", "-c", metavar="FILE", help="config to replay with (default: the run's own)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=replay_cmd)


def replay_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.replay import replay

    report = replay(Path(args.run), args.tag, args.against, Path(args.config) if args.config else None,
                    args.overrides)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    tags = list(report["tags"])
    table = Table(title=f"holdout replay of {' vs '.join(tags)} (scores 0-10)")
    table.add_column("task")
    for name in tags:
        table.add_column(f"{name} recorded", justify="right")
        table.add_column(f"{name} replayed", justify="right")

    def cell(value) -> str:
        return "" if value is None else f"{value:g}"

    for task in report["tasks"]:
        row = [task]
        for name in tags:
            row += [cell(report["tags"][name]["recorded"].get(task)), cell(report["tags"][name]["replayed"].get(task))]
        table.add_row(*row)
    table.add_row("mean", *[c for name in tags for c in ("", cell(report["tags"][name]["mean"]))])
    Console().print(table)
    return 0
