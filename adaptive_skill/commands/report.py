"""`report --run DIR [--out FILE] [--format html|md]`: what an overnight run did, from its run directory."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adaptive_skill.commands.common import add_format_arg, add_run_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report", help="an HTML (or Markdown) report of a run: curves, gating, outcomes, trajectories",
        description="""Build a report of a run from its run directory alone, so it works for a run that is
                    still going or that crashed. HTML: one self-contained file (no network needed) with
                    learning curves, the judge's calibration, each cycle's skill diff and gating numbers, a
                    task x tag outcome matrix, spiral events and a trajectory viewer. Markdown: the same
                    tables for a terminal.""",
        epilog="""examples:
  adaptive-skill report --run runs/20250101-220000-ab12cd
  adaptive-skill report --run runs/20250101-220000-ab12cd --format md
  adaptive-skill report --run runs/20250101-220000-ab12cd --out report.html""")
    add_run_arg(parser, "the run directory, e.g. runs/20250101-220000-ab12cd", old_positional=True)
    parser.add_argument("--out", "-o", metavar="FILE",
                        help="the file to write (html default: DIR/report.html; md default: stdout)")
    add_format_arg(parser, ("html", "md"), "html (default): one self-contained page; md: Markdown tables")
    parser.set_defaults(handler=report)


def report(args: argparse.Namespace) -> int:
    from adaptive_skill.report import build, render_html, render_markdown
    from adaptive_skill.review.human import human_review

    built = build(Path(args.run), human_review=human_review)
    if args.format == "md":
        text = render_markdown(built)
        if not args.out:
            sys.stdout.write(text)
            return 0
    else:
        text = render_html(built)
    out = Path(args.out) if args.out else Path(args.run) / "report.html"
    _write(out, text)
    print(out)
    return 0


def _write(path: Path, text: str) -> None:
    """Write-then-rename: a report being rebuilt is never seen half written."""
    import os

    from adaptive_skill.errors import UserError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"{path}: cannot write the report ({exc.strerror})") from None
