"""`adaptive-skill images build --suite DIR` and `images base`: make the Docker images tasks run in."""

from __future__ import annotations

import argparse

from adaptive_skill.commands.common import add_quiet_arg, add_suite_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "images", help="build task images, and base: the Debian base images",
        description="""Make the Docker images tasks run in (docs/sandbox.md): build builds a suite's task
                    images ahead of a run (a run builds what is missing too); base makes the Debian base
                    images from Debian packages where no registry is reachable.""",
        epilog="""examples:
  adaptive-skill images build --suite benchmarks/terminal-easy
  adaptive-skill images base""")
    sub = parser.add_subparsers(dest="images_command", metavar="ACTION", required=True)

    build = sub.add_parser(
        "build", help="build every task image of a suite; unchanged tasks are cached",
        description="""Build the image of every task of a suite, a few at a time. Images are tagged by a hash
                    of the task's environment, so only what changed is built again (--force: all). Prints a
                    table of built, cached and failed images; exit code 1 when a build failed, 3 when some
                    tasks could not be loaded and the rest were built.""",
        epilog="""examples:
  adaptive-skill images build --suite benchmarks/terminal-easy --workers 4
  adaptive-skill images build --suite benchmarks/terminal-easy --force --log-dir build-logs --quiet""")
    add_suite_arg(build, "the suite directory (one task per subdirectory)", old_positional=True)
    build.add_argument("--workers", "-j", type=int, default=2, metavar="N", help="parallel builds (default 2)")
    build.add_argument("--force", action="store_true", help="rebuild even when the tag exists")
    build.add_argument("--log-dir", metavar="DIR", help="write each task's full build log to DIR/<task>.log")
    add_quiet_arg(build, old="--no-progress")
    build.set_defaults(handler=build_cmd)

    base = sub.add_parser(
        "base", help="make debian:bookworm-slim and debian:bookworm if missing "
                     "(debootstrap + docker import; no registry needed)",
        description="""Make the Debian base images debian:bookworm-slim and debian:bookworm, if missing, from
                    Debian packages (debootstrap, then docker import), for a machine that reaches a Debian
                    mirror but no image registry. Needs debootstrap, run as root.""",
        epilog="""examples:
  adaptive-skill images base
  adaptive-skill images base --mirror http://deb.debian.org/debian""")
    base.add_argument("--mirror", metavar="URL", help="Debian mirror (default: the host's apt sources)")
    base.set_defaults(handler=base_cmd)


def build_cmd(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from adaptive_skill.commands.common import REFUSED_EXIT, load_suite_reporting
    from adaptive_skill.errors import UserError
    from adaptive_skill.sandbox.engine import connect
    from adaptive_skill.sandbox.images import build_images

    if args.workers < 1:
        raise UserError(f"--workers must be at least 1, got {args.workers}")
    suite = load_suite_reporting(Path(args.suite))  # refused tasks are named and skipped
    tasks = suite.tasks
    client = connect()
    results = build_images(tasks, client, workers=args.workers, force=args.force,
                           progress=not args.quiet, log_dir=Path(args.log_dir) if args.log_dir else None)

    table = Table("task", "tag", "result", "seconds")
    for result in results:
        style = {"built": "green", "cached": "dim", "failed": "bold red"}[result.status]
        table.add_row(result.task_id, result.tag, f"[{style}]{result.status}[/]", f"{result.seconds:.1f}")
    console = Console()
    console.print(table)
    failed = [r for r in results if r.status == "failed"]
    for result in failed:
        console.print(f"[bold red]{result.task_id}[/]: {result.error}", highlight=False)
        if result.log_tail:
            console.print("\n".join("    " + line for line in result.log_tail.splitlines()[-10:]),
                          highlight=False, markup=False)
    counts = {status: sum(r.status == status for r in results) for status in ("built", "cached", "failed")}
    console.print(f"{counts['built']} built, {counts['cached']} cached, {counts['failed']} failed")
    return 1 if failed else REFUSED_EXIT if suite.refused else 0


def base_cmd(args: argparse.Namespace) -> int:
    from adaptive_skill.sandbox.debian_base import BASE_IMAGE_NAMES, ensure_base_images
    from adaptive_skill.sandbox.engine import connect

    created = ensure_base_images(connect(), mirror=args.mirror)
    print(f"created {', '.join(created)}" if created else f"present already: {', '.join(BASE_IMAGE_NAMES)}")
    return 0
