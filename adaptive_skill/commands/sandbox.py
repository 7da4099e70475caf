"""`adaptive-skill sandbox prune`: remove sandbox containers (and sibling networks) a killed run left behind."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sandbox", help="prune: remove the sandbox containers a killed run left behind",
        description="""The Docker sandboxes attempts run in (docs/sandbox.md). A run removes its own; prune
                    removes what a killed run left behind.""",
        epilog="""examples:
  adaptive-skill sandbox prune --dry-run
  adaptive-skill sandbox prune""")
    sub = parser.add_subparsers(dest="sandbox_command", metavar="ACTION", required=True)
    prune = sub.add_parser(
        "prune", help="remove containers (and sibling networks) labelled adaptive-skill.sandbox=1 "
                      "whose process is gone (never any other)",
        description="""Remove the sandbox containers, and the networks of their sibling services, that a killed
                    run left behind: only those labelled adaptive-skill.sandbox=1 whose creating process on
                    this host is gone. Those of runs still in progress, or made on another host, are kept and
                    named with the reason (--all removes them too).""",
        epilog="""examples:
  adaptive-skill sandbox prune --dry-run
  adaptive-skill sandbox prune --all""")
    prune.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    prune.add_argument("--all", dest="everything", action="store_true",
                       help="also remove sandboxes of runs still in progress (and of other hosts)")
    prune.set_defaults(handler=prune_cmd)


def prune_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.sandbox.engine import connect
    from adaptive_skill.sandbox.prune import prune_sandboxes

    report = prune_sandboxes(connect(), dry_run=args.dry_run, everything=args.everything)
    verb = "would remove" if args.dry_run else "removed"
    for name in report.removed:
        print(f"{verb} {name}")
    for name, why in report.kept:
        print(f"kept {name}: {why}")
    print(f"{len(report.removed)} {verb}, {len(report.kept)} kept")
    return 0
