"""`curve --config FILE --out DIR` / `curve --render DIR`: the learning curve of a config on its
holdout split (adaptive_skill/curve, docs/curve.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from adaptive_skill.commands.common import add_config_args, add_quiet_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "curve", help="the learning curve: seed, evolved tags and an expert on the holdout, paired, with intervals",
        description="""Measure the learning curve of a config: the seed workspace, the evolve run and each tag it
                    accepted, and the expert and other workspaces of its curve: section, all on the run's
                    holdout tasks with the gate's seeds, so every row is paired with the seed by task and
                    repeat. Writes DIR/results.json, DIR/results.md and DIR/curve.html (one self-contained
                    page). The same command again resumes: finished parts are skipped and finished attempts
                    reused; another config with the same DIR is refused. --render DIR writes results.md and
                    curve.html again from DIR/results.json, running nothing.""",
        epilog="""examples:
  adaptive-skill curve --config configs/curve-split2.yaml --out curve-split2
  adaptive-skill curve --config configs/curve-split2.yaml --out curve-split2 --set curve.repeats=1
  adaptive-skill curve --render curve-split2""")
    add_config_args(parser, "curve.repeats=1")
    parser.add_argument("--out", "-o", metavar="DIR",
                        help="the directory to write (re-run with the same one to resume); with --render, where "
                             "to write the page and table (default: the rendered DIR)")
    parser.add_argument("--render", metavar="DIR",
                        help="write DIR/results.md and DIR/curve.html again from DIR/results.json; runs nothing")
    parser.add_argument("--suite", metavar="DIR",
                        help="with --render: the suite whose families tell the twin holdout tasks apart, for a "
                             "results.json without them (default: the suite it names)")
    add_quiet_arg(parser)
    parser.set_defaults(handler=curve)


def curve(args: argparse.Namespace) -> int:
    from adaptive_skill.errors import UserError

    if args.render:
        if args.config or args.overrides:
            raise UserError("--render DIR writes from DIR/results.json: it takes no --config or --set")
        return render(Path(args.render), Path(args.out) if args.out else None,
                      Path(args.suite) if args.suite else None)
    if not args.config:
        raise UserError("curve needs --config FILE (and --out DIR), or --render DIR")
    if not args.out:
        raise UserError("--out DIR: the directory the curve is written to (and resumed from)")
    return measure(args)


def render(folder: Path, out: Path | None, suite: Path | None = None) -> int:
    import json

    from adaptive_skill.curve import render as write_page
    from adaptive_skill.errors import UserError

    source = folder / "results.json"
    try:
        results = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{source}: no such file (a curve's --out directory has one when it finished)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{source}: cannot read: {exc}") from None
    target = out or folder
    try:
        if suite is not None and "twins" not in results:  # the twins from that suite's families
            from adaptive_skill.curve.summary import twins_of

            results["twins"] = twins_of({**results, "settings": {**results["settings"], "suite": str(suite)}})
        target.mkdir(parents=True, exist_ok=True)
        write_page(results, target)
    except (KeyError, TypeError, AttributeError) as exc:
        raise UserError(f"{source}: not a curve's results.json ({type(exc).__name__}: {exc})") from None
    print(target / "curve.html")
    return 0


def measure(args: argparse.Namespace) -> int:
    from adaptive_skill.commands.common import load_config_from_args
    from adaptive_skill.curve import Bench, identity
    from adaptive_skill.curve.bench import check_models, check_workspaces
    from adaptive_skill.progress import Display

    config = load_config_from_args(args)
    out = Path(args.out).resolve()
    config.paths.runs_dir = out / "runs"  # the evolve run is DIR/runs/evolve, whatever the config says
    check_models(config)
    check_workspaces(config)
    display = Display("quiet" if args.quiet else "auto")
    results = Bench(out, config, identity(config), display=display).run()
    for row in results["curve"] + ([results["expert"]] if results["expert"] else []) + results["workspaces"]:
        rate, diff = row["pass_rate"], row["vs_seed"]
        print(f"{row['label']}: {_pct(rate['mean'])} [{_pct(rate['low'])}, {_pct(rate['high'])}]"
              + ("" if row is results["seed"] else
                 f"; vs seed {_pts(diff['mean'])} [{_pts(diff['low'])}, {_pts(diff['high'])}] points"))
    print(f"curve: {out / 'curve.html'}")
    return 0


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _pts(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:+.2f}"
