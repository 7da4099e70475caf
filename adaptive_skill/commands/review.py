"""`review --run DIR [--port 8765] [--rater NAME]`: rate a run's escalated trajectories, skill mutations
and proposed tasks blind in the browser; `review --run DIR --out ratings.csv|json` writes the ratings."""

from __future__ import annotations

import argparse
from pathlib import Path

from adaptive_skill.commands.common import OldOption, add_run_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review", help="rate escalated trajectories, skill mutations and proposed tasks in the browser",
        description="""Serve a local web app (127.0.0.1 only) for rating a run blind: the trajectories the
                    spiral monitor escalated, every skill mutation with its diff, and proposed tasks
                    (the engine's, with their files, and DIR/proposals/*.json from `adaptive-skill novelty
                    --out`); a not-blind page lists the engine's proposals with their checks. Ratings go to
                    DIR/reviews.sqlite; the report compares them with the judge, and `review.human_verdicts:
                    true` lets `evolve --resume` use them in place of the judge's verdicts (docs/review.md).""",
        epilog="""examples:
  adaptive-skill review --run runs/20250101-220000-ab12cd --rater alice
  adaptive-skill review --run runs/20250101-220000-ab12cd --out ratings.csv""")
    add_run_arg(parser, "the run directory to rate", old_positional=True)
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0 picks a free one)")
    parser.add_argument("--rater", metavar="NAME", help="rate as NAME without being asked (others can still sign in)")
    parser.add_argument("--allow-running", action="store_true",
                        help="allow rating a run whose event log has no run_end (one that died without a word)")
    parser.add_argument("--out", "-o", metavar="FILE",
                        help="write every rating to FILE (.csv or .json) and exit, serving nothing")
    parser.add_argument("--export", dest="out", action=OldOption, replaced_by="--out")
    parser.set_defaults(handler=review)


def review(args: argparse.Namespace) -> int:
    if args.out:
        from adaptive_skill.ratings import read_ratings
        from adaptive_skill.report.load import load_run
        from adaptive_skill.review.export import write

        load_run(Path(args.run))
        ratings = read_ratings(Path(args.run))
        write(ratings, Path(args.out))
        print(f"{len(ratings)} rating(s) written to {args.out}")
        return 0
    from adaptive_skill.review.server import serve

    serve(Path(args.run), port=args.port, rater=args.rater, allow_running=args.allow_running,
          say=lambda line: print(line, flush=True))
    return 0
