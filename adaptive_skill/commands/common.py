"""Arguments shared by several commands, and the grammar they all follow (docs/cli.md).

- a run directory is `--run DIR` (`evolve --resume DIR` names the run to continue);
- `--out`/`-o` is the path the command writes: a file or a directory, as its help says;
- `--format` chooses the output, from text, json, md and html (each command takes those it can write;
  the first is the default, text wherever text is offered);
- a suite is `--suite DIR`; a task in it `--task ID`; a task's own directory `--task-dir DIR`;
- `--quiet`/`-q` turns the progress display off wherever there is one, in the same words everywhere;
- no command has an option of the top level's (`-v/--verbose`, `--version`).

An old spelling keeps working for a release: it is left out of --help, and once the command has
finished without error it prints one line on stderr, "warning: --json is deprecated; use --format json".
The line never comes before an error, so bad input still ends in one line and exit code 2.
"""

from __future__ import annotations

import argparse
import copy

DEPRECATIONS = "deprecated_spellings"  # the namespace attribute holding the lines to print


def note_deprecated(namespace: argparse.Namespace, old: str, new: str) -> None:
    notes = getattr(namespace, DEPRECATIONS, None)
    if notes is None:
        notes = []
        setattr(namespace, DEPRECATIONS, notes)
    line = f"{old} is deprecated; use {new}"
    if line not in notes:
        notes.append(line)


class Formatter(argparse.HelpFormatter):
    """Usage that shows an option a command requires in one of two spellings (`--run DIR` or the old
    RUN) as required; an epilog starting with "examples:" kept line by line."""

    def add_usage(self, usage, actions, groups, prefix=None):
        shown = []
        for action in actions:
            if getattr(action, "shown_required", False):
                action = copy.copy(action)
                action.required = True
            shown.append(action)
        super().add_usage(usage, shown, groups, prefix)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser whose commands may finish their arguments after parsing (`finishers`, each
    called with the parser and the namespace) and that formats help with `Formatter`. Subcommand
    parsers are made of the same class."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)
        self.finishers: list = []

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        for finish in self.finishers:
            finish(self, namespace)
        return namespace, extras


class OldOption(argparse.Action):
    """An old spelling kept for a release (`--output FILE` for `--out FILE`): stores its value in the new
    option's dest, is hidden from --help and notes a deprecation. With `const` it takes no value and
    stores `const` (`--json` for `--format json`); `also` are further values it sets."""

    def __init__(self, option_strings, dest, replaced_by: str, const=None, also: dict | None = None, help=None):
        super().__init__(option_strings, dest, nargs=None if const is None else 0, const=const,
                         default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        self.replaced_by, self.also = replaced_by, dict(also or {})

    def __call__(self, parser, namespace, values, option_string=None):
        note_deprecated(namespace, option_string, self.replaced_by)
        setattr(namespace, self.dest, values if self.const is None else self.const)
        for key, value in self.also.items():
            setattr(namespace, key, value)


class OldPositional(argparse.Action):
    """An option given the old way, as a positional argument (`report RUN` for `report --run DIR`, `images
    build SUITE` for `--suite DIR`), kept for a release: hidden from --help; the command's finisher
    (`add_option_with_old_positional`) moves it to the option."""

    def __init__(self, option_strings, dest, replaced_by: str, metavar=None, nargs=None, **kwargs):
        super().__init__(option_strings, dest, nargs="?", default=argparse.SUPPRESS, help=argparse.SUPPRESS,
                         metavar=metavar)
        self.replaced_by = replaced_by

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


def require(parser: CommandParser, action: argparse.Action) -> None:
    """`action` is required, but may be given in an old spelling (another action): checked after parsing."""
    action.shown_required = True
    name = "/".join(action.option_strings)

    def finish(parser: CommandParser, namespace: argparse.Namespace) -> None:
        if getattr(namespace, action.dest, None) is None:
            parser.error(f"the following arguments are required: {name}")

    parser.finishers.append(finish)


def add_option_with_old_positional(parser: CommandParser, flags: tuple[str, ...], old_metavar: str, what: str,
                                   required: bool = False, **kwargs) -> argparse.Action:
    """The option `flags` (`--run`, `--suite`, `--task-dir`, `--out`/`-o`; `kwargs` as for add_argument,
    metavar included), which an older release took as a positional `old_metavar` (RUN, SUITE, TASK_DIR,
    DEST): that spelling still works, hidden from --help, and notes "images build SUITE is deprecated;
    use images build --suite DIR". `what` names the value in the error for both at once."""
    dest = flags[0].lstrip("-").replace("-", "_")
    old_dest = f"old_{dest}"
    new = f"{flags[0]} {kwargs.get('metavar') or dest.upper()}"
    parser.add_argument(old_dest, action=OldPositional, metavar=old_metavar, replaced_by=new)

    def finish(parser: CommandParser, namespace: argparse.Namespace) -> None:
        old = getattr(namespace, old_dest, None)
        if hasattr(namespace, old_dest):
            delattr(namespace, old_dest)
        if old is None:
            return
        given = getattr(namespace, dest, None)
        if given is not None and given != old:
            parser.error(f"give {what} once: {flags[0]} {given} or {old_metavar} {old}, not both")
        setattr(namespace, dest, old)
        command = " ".join(parser.prog.split()[1:])
        note_deprecated(namespace, f"{command} {old_metavar}", f"{command} {new}")

    parser.finishers.append(finish)  # before require's check, which then sees the value
    action = parser.add_argument(*flags, **kwargs)
    if required:
        require(parser, action)
    return action


def add_config_args(parser: argparse.ArgumentParser, example: str, required: bool = False,
                    with_file: bool = True) -> None:
    """--config FILE and --set KEY=VALUE; `example` is a --set this command's work depends on (gating.*
    only where there is a gate: evolve, replay, config check)."""
    if with_file:
        parser.add_argument("--config", "-c", required=required, metavar="FILE", help="YAML config file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help=f"override a config value, e.g. --set {example} (repeatable)")


def add_run_arg(parser: CommandParser, help: str, required: bool = True, old_positional: bool = False) -> None:
    """--run DIR, the run directory the command reads (args.run). With `old_positional`, the run may
    also be given the old way, as a positional RUN (deprecated)."""
    _add_dir_option(parser, "--run", "RUN", "the run directory", help, required, old_positional)


def add_suite_arg(parser: CommandParser, help: str, required: bool = True, old_positional: bool = False) -> None:
    """--suite DIR, the suite of tasks the command reads (args.suite). With `old_positional`, the suite may
    also be given the old way, as a positional SUITE (deprecated)."""
    _add_dir_option(parser, "--suite", "SUITE", "the suite", help, required, old_positional)


def _add_dir_option(parser: CommandParser, option: str, old_name: str, what: str, help: str, required: bool,
                    old_positional: bool) -> None:
    if old_positional:
        add_option_with_old_positional(parser, (option,), old_name, what, required=required, metavar="DIR",
                                       help=help)
    else:
        parser.add_argument(option, required=required, metavar="DIR", help=help)


def add_format_arg(parser: argparse.ArgumentParser, choices: tuple[str, ...], help: str,
                   json_flag: bool = False) -> None:
    """--format, from text, json, md and html; the first choice is the default. `json_flag`: the old
    `--json` still means `--format json`."""
    parser.add_argument("--format", choices=choices, default=choices[0], help=help)
    if json_flag:
        parser.add_argument("--json", dest="format", action=OldOption, const="json", replaced_by="--format json")


QUIET_HELP = ("no progress display (bars, a line per task or step); the command's own messages and its "
              "result still print")


def add_quiet_arg(parser: argparse.ArgumentParser, old: str | None = None) -> None:
    """--quiet/-q: no progress display, in the same words on every command that shows progress. `old`: an
    older spelling of it that still works (deprecated)."""
    parser.add_argument("--quiet", "-q", action="store_true", help=QUIET_HELP)
    if old:
        parser.add_argument(old, dest="quiet", action=OldOption, const=True, replaced_by="--quiet")


def load_config_from_args(args: argparse.Namespace):
    """The config of --config and --set; with --resume DIR, the keys whose default depends on others
    (config/defaults.py) that the config leaves out keep the values DIR/config.yaml stored."""
    from adaptive_skill.config import load_config

    return load_config(args.config, args.overrides, stored=_stored_config(getattr(args, "resume", None)))


def _stored_config(run_dir) -> dict | None:
    """A run's stored config.yaml as a mapping, or None where there is none (RunDir.open says why)."""
    from pathlib import Path

    from adaptive_skill.runs import RunDir

    return RunDir(Path(run_dir)).stored_config() if run_dir else None


# Exit code of list/validate/run when the suite loaded only in part: some tasks were refused (each
# named on stderr) and the others ran. 2 stays "nothing could be loaded" (a UserError).
REFUSED_EXIT = 3


def load_suite_reporting(path) -> object:
    """scan_suite, with each refused task and each warning printed as one line on stderr."""
    import sys
    from pathlib import Path

    from adaptive_skill.tasks import scan_suite

    suite = scan_suite(Path(path))
    for refused in suite.refused:
        print(f"error: {refused.line()}", file=sys.stderr)
    for warning in suite.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return suite


def selected_tasks(args: argparse.Namespace, timeout_multiplier: float = 1.0) -> tuple[list, list]:
    """(tasks, refused): the suite's loadable tasks (or the `--task` ones), after checking `--workers`;
    timeouts scaled by `timeout_multiplier`. Asking by --task for a refused task is an error."""
    from adaptive_skill.errors import UserError
    from adaptive_skill.tasks import find_task, scale_timeouts

    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    suite = load_suite_reporting(args.suite)
    refused = {r.id: r for r in suite.refused}
    if args.task:
        for task_id in args.task:
            if task_id in refused:
                raise UserError(refused[task_id].line())
        tasks = [find_task(suite.tasks, t) for t in args.task]
        return [scale_timeouts(t, timeout_multiplier) for t in tasks], []
    return [scale_timeouts(t, timeout_multiplier) for t in suite.tasks], suite.refused
