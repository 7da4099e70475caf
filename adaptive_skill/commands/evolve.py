"""`evolve --config FILE [--resume DIR] [--set k=v]`: the overnight run."""

from __future__ import annotations

import argparse
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_quiet_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evolve", help="run evolution cycles: solve, observe, explore, evolve, gate, commit, converge (and propose)",
        description="""Run evolution cycles overnight. Each cycle runs the engine's phases in order: solve a batch
                    of train tasks in Docker; observe the trajectories (signals, and the judge's label-free
                    verdicts); explore (with explore.passes > 0: attempt tasks again); evolve the skill library
                    under its budget; gate the change on held-out tasks; commit it as a git tag evo-N or roll
                    it back; converge (is the library still improving?); and, with task_proposal.enabled,
                    propose new train tasks (docs/engine.md). Create a file named STOP in the run directory,
                    or press Ctrl-C once, to stop after the current unit; --resume continues exactly
                    there.""",
        epilog="""examples:
  adaptive-skill evolve --config configs/cycle.yaml
  adaptive-skill evolve --config configs/cycle.yaml --set gating.max_rounds=10
  adaptive-skill evolve --config configs/cycle.yaml --resume runs/20250101-220000-ab12cd""")
    add_config_args(parser, "gating.max_rounds=10", required=True)
    parser.add_argument("--resume", metavar="DIR", help="the run directory of a stopped run: continue it exactly "
                                                        "where it stopped")
    parser.add_argument("--run-id", metavar="ID", help="name of the new run directory (default: time + random)")
    add_quiet_arg(parser)
    parser.set_defaults(handler=evolve)


def evolve(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.engine import AdaptiveSkillEngine
    from adaptive_skill.progress import Display

    config = load_config_from_args(args)
    display = Display("quiet" if args.quiet else "auto")
    if args.resume:
        engine = AdaptiveSkillEngine.resume(config, Path(args.resume), display=display)
    else:
        engine = AdaptiveSkillEngine.start(config, run_id=args.run_id, display=display)
    status = engine.run()
    tags = [t.name for t in engine.repo.tags()]
    print(f"run: {engine.run_dir.root}")
    print(f"status: {status}; cycles completed: {engine.state.cycle - 1}; tags: {', '.join(tags)}")
    return 1 if status == "model_unavailable" else 0  # a role's server went away: --resume goes on
