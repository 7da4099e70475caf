"""Command-line entry points. Argument parsing only: each command group lives in
adaptive_skill/commands/<group>.py with a `register(subparsers)` function, and every handler
imports what it needs inside itself, so `--help` never pays for litellm, docker or numpy. Every
command follows one grammar (adaptive_skill/commands/common.py, docs/cli.md)."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from adaptive_skill import __version__
from adaptive_skill.commands.common import DEPRECATIONS, CommandParser

# Order here is the order in `--help`.
COMMAND_MODULES = ("evolve", "report", "review", "replay", "curve", "config", "skills", "tasks", "run", "solve",
                   "spiral", "trajectory", "judge", "novelty", "images", "sandbox")


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="adaptive-skill",
        description="Evolve a terminal agent's skill library overnight, without labels. "
                    "The grammar every command follows: docs/cli.md.",
        epilog="""examples:
  adaptive-skill evolve --config configs/quickstart.yaml
  adaptive-skill report --run runs/20250101-220000-ab12cd
  adaptive-skill -v tasks validate --suite benchmarks/terminal-easy""",
    )
    parser.add_argument("--version", action="version", version=f"adaptive-skill {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="show tracebacks and debug output")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        import_module(f"adaptive_skill.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    return run_handler(args)


def run_handler(args: argparse.Namespace) -> int:
    """Run a command; user errors become one line and exit code 2, no traceback unless --verbose. An
    old spelling's deprecation line follows a command that succeeded, never an error."""
    code = _run(args)
    if code == 0:
        for line in getattr(args, DEPRECATIONS, None) or ():
            print(f"warning: {line}", file=sys.stderr)
    return code


def _run(args: argparse.Namespace) -> int:
    from adaptive_skill.errors import UserError
    from adaptive_skill.llm.base import ModelUnavailable

    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        if args.verbose:
            raise
        for line in str(exc).splitlines() or [type(exc).__name__]:
            print(f"error: {line}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except ModelUnavailable as exc:  # a role's server went away: what finished is kept on disk
        if args.verbose:
            raise
        print(f"error: {exc}; what finished is kept: run the same command again to go on", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`... | head`): not an error. Point stdout at devnull so the
        # interpreter's final flush does not complain either.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # an internal error: still one line unless the user asks for more
        if args.verbose:
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (run with --verbose for the traceback)",
              file=sys.stderr)
        return 1


def evolve_main(argv: list[str] | None = None) -> int:
    """The `evolve` console script: the same as `adaptive-skill evolve`."""
    argv = sys.argv[1:] if argv is None else argv
    # Global flags may come first (`evolve -v --config ...`); they still belong before the subcommand.
    return main(["evolve", *argv] if "-v" not in argv and "--verbose" not in argv
                else ["--verbose", "evolve", *[a for a in argv if a not in ("-v", "--verbose")]])
