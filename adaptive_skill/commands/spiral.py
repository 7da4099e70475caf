"""`adaptive-skill spiral scan TRAJ.json [--format json]`: replay a saved trajectory through the loop
monitor and print whether and where it would have intervened, and why (one paragraph per
intervention, or JSON)."""

from __future__ import annotations

import argparse

from adaptive_skill.commands.common import add_config_args, add_format_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "spiral", help="scan: loop detection over a saved trajectory",
        description="""The spiral monitor watches the agent for loops (the same command, the same error, the
                    same words again) and intervenes: a nudge, a restart, escalation (docs/spiral.md). scan
                    replays a saved trajectory through it.""",
        epilog="""examples:
  adaptive-skill spiral scan tests/fixtures/trajectories/loop_native.json
  adaptive-skill spiral scan tests/fixtures/trajectories/loop_native.json --format json""")
    sub = parser.add_subparsers(dest="spiral_command", metavar="ACTION", required=True)
    scan = sub.add_parser(
        "scan", help="replay TRAJ.json through the spiral monitor and print what it saw",
        description="""Replay a saved trajectory through the loop monitor, one step at a time as the agent
                    would have fed it, and print whether and where it would have intervened: one line on the
                    run, then a paragraph per intervention explaining its evidence (text), or the report
                    (json: spiral, first_step, failed_steps, events).""",
        epilog="""examples:
  adaptive-skill spiral scan tests/fixtures/trajectories/loop_native.json
  adaptive-skill spiral scan tests/fixtures/trajectories/loop_native.json --format json --set spiral.threshold=2""")
    scan.add_argument("trajectory", metavar="TRAJ.json",
                      help="a JSON list of chat messages, or an object with 'messages' (a saved trajectory, "
                           "mini-swe-agent's included)")
    add_format_arg(scan, ("text", "json"),
                   "text (default): one paragraph per intervention explaining its evidence; json: the report")
    add_config_args(scan, "spiral.threshold=2")
    scan.set_defaults(handler=scan_cmd)


def scan_cmd(args: argparse.Namespace) -> int:
    import json

    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.embed import make_embedder
    from adaptive_skill.spiral.scan import report_text, scan
    from adaptive_skill.trajectory import load_view

    config = load_config_from_args(args)
    trajectory = load_view(args.trajectory)  # a bad file is one line and exit 2, before any embedder loads
    report = scan(trajectory, config.spiral, make_embedder(config.models.embedder))
    if args.format == "text":
        print(report_text(report), end="")
    else:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0
