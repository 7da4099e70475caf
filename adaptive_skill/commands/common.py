"""Arguments shared by several commands."""

from __future__ import annotations

import argparse


def add_config_args(parser: argparse.ArgumentParser, required: bool = False, with_file: bool = True) -> None:
    if with_file:
        parser.add_argument("--config", "-c", required=required, metavar="FILE", help="YAML config file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. --set gating.margin=0.5 (repeatable)")


def load_config_from_args(args: argparse.Namespace):
    from adaptive_skill.config import load_config

    return load_config(args.config, args.overrides)
