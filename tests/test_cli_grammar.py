"""The CLI's one grammar (docs/cli.md), checked on the argparse parser itself, not through
subprocesses: every command, subcommand and option has help; every example and every option named
in a help text is one its command has; no option shadows a global one; a run directory is `--run
DIR`, output `--out`, formats `--format`, progress `--quiet` everywhere; the old spellings still
work, and say once that they are deprecated; docs/cli.md's table has a row for every command, naming
each of its options; every command and group has a description and examples that parse; a suite, a
task, an output, a format and quiet have one spelling and one default everywhere."""

import argparse
import json
import re
import shlex
from pathlib import Path

import pytest

from adaptive_skill.cli import build_parser, main

REPO = Path(__file__).resolve().parents[1]
GATING = {("evolve",), ("replay",), ("curve",), ("config", "check")}  # the commands whose config has a gate to tune
FORMATS = {"text", "json", "md", "html"}
OLD_SPELLINGS = {"--output", "--json", "--no-progress", "--export"}  # kept for a release, never shown in --help
PROGRESS = {("evolve",), ("replay",), ("run",), ("solve",), ("curve",), ("tasks", "validate"), ("images", "build"),
            ("novelty",), ("novelty-experiment",)}  # commands that show progress while they work
STRUCTURED = {("replay",), ("skills", "list"), ("skills", "log"), ("tasks", "list"), ("tasks", "validate"), ("run",),
              ("solve",), ("spiral", "scan"), ("trajectory", "signals"), ("judge",)}  # print a report: text or json
OPTION = re.compile(r"(?<![\w./`-])(--?[a-zA-Z][\w-]*)")


def walk(parser: argparse.ArgumentParser, path: tuple = ()):
    """(path, parser) for the top level and every command and subcommand, depth first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, (*path, name))


PARSER = build_parser()
PARSERS = dict(walk(PARSER))
COMMANDS = [path for path in PARSERS if path]


def subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def visible(action: argparse.Action) -> list[str]:
    """The option strings --help shows for an action (none for an old spelling)."""
    return [] if action.help is argparse.SUPPRESS else list(action.option_strings)


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for action in parser._actions for s in visible(action)}


def hidden_on_purpose(action: argparse.Action) -> bool:
    """Only an old spelling kept for a release may leave --help."""
    return bool(getattr(action, "replaced_by", None))


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "adaptive-skill")
def test_every_subcommand_and_option_has_help(path):
    parser = PARSERS[path]
    parser.format_help()  # renders
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest: choice.help for choice in action._choices_actions}
            missing += [f"subcommand {name}" for name in action.choices if not helped.get(name)]
        elif action.help is argparse.SUPPRESS:
            assert hidden_on_purpose(action), f"{' '.join(path)}: {action.option_strings or action.dest} is hidden"
        elif not action.help:
            missing.append("/".join(action.option_strings) or action.metavar or action.dest)
    assert not missing, f"adaptive-skill {' '.join(path)}: no help for {', '.join(missing)}"


@pytest.mark.parametrize("path", [p for p in PARSERS if subcommands(PARSERS[p])], ids=lambda p: " ".join(p) or "-")
def test_a_groups_one_line_help_names_every_subcommand(path):
    """`skills --help` once said "check, list, show, diff and log" of its seven subcommands."""
    problems = []
    for choice in subcommands(PARSERS[path])._choices_actions:
        inner = subcommands(PARSERS[(*path, choice.dest)])
        if inner is None:
            continue
        absent = [name for name in inner.choices if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])",
                                                                    choice.help)]
        if absent:
            problems.append(f"{' '.join((*path, choice.dest))}: its help {choice.help!r} leaves out {absent}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_no_option_shadows_a_global_one(path):
    """`novelty --verbose/-v` once meant something else than the global -v."""
    shadowing = (options(PARSERS[path]) - {"-h", "--help"}) & options(PARSER)
    assert not shadowing, f"{' '.join(path)}: {shadowing} shadow the global option(s)"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_one_grammar(path):
    parser = PARSERS[path]
    found = options(parser)
    name = " ".join(path)
    assert not found & OLD_SPELLINGS, f"{name}: shows an old spelling {found & OLD_SPELLINGS}"
    for action in parser._actions:
        if action.help is argparse.SUPPRESS:
            continue
        if not action.option_strings:
            assert action.dest != "run" and action.metavar not in ("RUN", "RUN_DIR"), \
                f"{name}: a run directory is --run DIR, not a positional {action.metavar}"
            continue
        if action.dest == "run" or "--run" in action.option_strings or "--resume" in action.option_strings:
            assert action.metavar == "DIR", f"{name}: {action.option_strings[0]} {action.metavar}: say DIR"
        if "--format" in action.option_strings:
            assert set(action.choices) <= FORMATS, f"{name}: --format {action.choices}: use {FORMATS}"
        if "--out" in action.option_strings:
            assert "-o" in action.option_strings and action.metavar in ("FILE", "DIR"), name
        if "--quiet" in action.option_strings:
            assert "-q" in action.option_strings, name
    if path in PROGRESS:
        assert "--quiet" in found, f"{name} shows progress: it takes --quiet"


def examples(parser: argparse.ArgumentParser) -> list[str]:
    """The command lines of a parser's epilog, which starts with "examples:" and has one per line."""
    lines = (parser.epilog or "").splitlines()
    if not lines or lines[0] != "examples:":
        return []
    return [line.strip() for line in lines[1:] if line.strip()]


def example_argv(line: str) -> list[str]:
    """The arguments an example line gives build_parser(): `evolve ...` is `adaptive-skill evolve ...`."""
    words = shlex.split(line)
    return words[1:] if words[0] == "adaptive-skill" else ["evolve", *words[1:]]


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "adaptive-skill")
def test_every_command_and_group_has_a_description_and_an_example(path):
    """`run`, `solve` and `judge` once had no description, and the groups config, tasks, spiral,
    trajectory, images and sandbox neither description nor example."""
    parser = PARSERS[path]
    name = " ".join(("adaptive-skill", *path))
    assert (parser.description or "").strip(), f"{name}: no description"
    assert (parser.epilog or "").startswith("examples:\n"), f"{name}: no epilog starting with 'examples:'"
    lines = examples(parser)
    assert lines, f"{name}: its examples: section has no example"
    for line in lines:
        assert line.startswith(("adaptive-skill ", "evolve ")), f"{name}: {line!r} is not a command line"


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "adaptive-skill")
def test_every_example_parses_in_the_new_spellings(path, capsys):
    """Each example line parses with build_parser() (nothing runs), names this command (or, for a group,
    one of its subcommands) and uses no old spelling."""
    problems = []
    for line in examples(PARSERS[path]):
        argv = example_argv(line)
        named = command_of(["adaptive-skill", *argv])[0]
        if named[:len(path)] != path:
            problems.append(f"{line!r} is an example of `{' '.join(named)}`, not of this command")
        try:
            args = build_parser().parse_args(argv)
        except SystemExit:
            problems.append(f"{line!r} does not parse: {capsys.readouterr().err.strip().splitlines()[-1]}")
            continue
        if getattr(args, "deprecated_spellings", None):
            problems.append(f"{line!r} uses an old spelling: {args.deprecated_spellings}")
    assert not problems, "\n".join(problems)


def quiet_actions() -> list[tuple[str, argparse.Action]]:
    return [(" ".join(path), action) for path in COMMANDS for action in PARSERS[path]._actions
            if action.help is not argparse.SUPPRESS and ({"-q", "--quiet"} & set(action.option_strings))]


def test_quiet_is_one_option_with_one_meaning():
    """`-q` once had four wordings, meant "only the summary" in novelty, and solve had none: it is now
    `--quiet`/`-q` everywhere, a flag, with one help text (no progress display)."""
    found = quiet_actions()
    assert found
    for name, action in found:
        assert action.option_strings == ["--quiet", "-q"], f"{name}: {action.option_strings}"
        assert isinstance(action, argparse._StoreTrueAction) and action.default is False, name
    wordings = {action.help for _, action in found}
    assert len(wordings) == 1, f"--quiet has {len(wordings)} wordings: {sorted(wordings)}"
    assert "progress" in wordings.pop()


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_formats_default_to_text_where_text_is_offered(path):
    """`spiral scan` once defaulted to json where every other command defaults to text; `trajectory
    signals` and `judge` printed JSON with no --format. A command that prints a report takes --format
    text|json, text first and the default."""
    parser = PARSERS[path]
    name = " ".join(path)
    formats = [a for a in parser._actions if "--format" in a.option_strings]
    if path in STRUCTURED:
        assert formats and {"text", "json"} <= set(formats[0].choices), f"{name}: prints a report, needs --format"
    for action in formats:
        if "text" in action.choices:
            assert action.choices[0] == "text" and action.default == "text", \
                f"{name}: --format {action.choices} defaults to {action.default}, not text"
        assert action.default == action.choices[0], f"{name}: the first format in its help is its default"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_a_suite_a_task_and_an_output_have_one_spelling(path):
    """A suite is `--suite DIR` (never a positional SUITE); a task in a suite is `--task ID` and a task's
    directory `--task-dir DIR` (never a positional TASK_DIR); what a command writes is `--out`
    (not `--export` or a positional DEST); no option shown in --help has an old name."""
    parser = PARSERS[path]
    name = " ".join(path)
    for action in parser._actions:
        if action.help is argparse.SUPPRESS:
            continue
        shown = set(action.option_strings)
        if not shown:
            assert action.dest not in ("suite", "task_dir", "dest") and \
                action.metavar not in ("SUITE", "TASK_DIR", "DEST"), \
                f"{name}: a positional {action.metavar or action.dest}: use --suite/--task-dir/--out"
            continue
        assert not shown & OLD_SPELLINGS, f"{name}: {shown & OLD_SPELLINGS} is an old spelling"
        if "--suite" in shown:
            assert action.dest == "suite" and action.metavar == "DIR", f"{name}: --suite {action.metavar}"
        if "--task" in shown:
            assert action.metavar == "ID", f"{name}: --task is a task ID; a directory is --task-dir DIR"
        if "--task-dir" in shown:
            assert action.metavar == "DIR", name
        if action.dest == "out":
            assert "--out" in shown, f"{name}: the output is --out, not {action.option_strings}"


def test_evolve_names_the_phases_the_engine_runs():
    """`evolve --help` once listed "solve, judge, evolve, gate, commit"; the engine's cycle
    (engine/cycle.py) runs its phases in an order both the one-line help and the description follow."""
    source = (REPO / "adaptive_skill" / "engine" / "cycle.py").read_text()
    phases = re.findall(r'self\._phase\(n, "(\w+)"', source)
    assert phases[:3] == ["solve", "observe", "explore"] and "propose" in phases
    parser = PARSERS[("evolve",)]
    one_line = next(c.help for c in subcommands(PARSER)._choices_actions if c.dest == "evolve")
    for where, text in (("one-line help", one_line), ("description", parser.description)):
        named = [word for word in re.findall(r"[a-z]+", text) if word in phases]
        assert [p for i, p in enumerate(named) if p not in named[:i]] == phases, \
            f"evolve {where} names the phases {named}, the engine runs {phases}"


def command_of(words: list[str]) -> tuple[tuple, list[str]] | None:
    """The command a written command line names and the words after it; None when it names none."""
    if words and words[0] == "adaptive-skill":
        words = [w for w in words[1:] if w not in ("-v", "--verbose")]  # a global option may come first
    elif not words or (words[0],) not in PARSERS:
        return None
    path: tuple = ()
    while words and (*path, words[0]) in PARSERS:
        path, words = (*path, words[0]), words[1:]
    return path, words


def check_options(where: str, path: tuple, text: str, problems: list[str]) -> None:
    have = options(PARSERS[path])
    for flag in OPTION.findall(text):
        if flag not in have:
            problems.append(f"{where}: {flag} is not an option of `adaptive-skill {' '.join(path)}`")
    for setting in re.findall(r"--set[ =](\S+)", text):
        key = setting.split("=", 1)[0]
        if key.startswith("gating.") and path not in GATING:
            problems.append(f"{where}: --set {setting} on `{' '.join(path)}`, which has no gate")
        from adaptive_skill.config import load_config

        try:
            load_config(REPO / "configs" / "quickstart.yaml", [setting.rstrip(").,;")])
        except Exception as exc:  # noqa: BLE001 - any refusal is the finding
            problems.append(f"{where}: --set {setting}: {str(exc).splitlines()[0]}")


def texts(path: tuple) -> list[tuple[str, str]]:
    """(where, text) of every help text that belongs to a command: its description, epilog, its
    options' help, and its one-line help as its parent's --help shows it."""
    parser = PARSERS[path]
    found = [("description", parser.description or ""), ("epilog", parser.epilog or "")]
    found += [(f"help of {'/'.join(a.option_strings) or a.dest}", a.help or "") for a in parser._actions
              if a.help is not argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)]
    if path:
        parent = subcommands(PARSERS[path[:-1]])
        found += [("one-line help", c.help or "") for c in parent._choices_actions if c.dest == path[-1]]
    return found


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "adaptive-skill")
def test_examples_name_only_options_their_command_has(path):
    """Every `--option` and `--set key=value` a help text or example names belongs to the command it is
    written for (another command's, when quoted as `adaptive-skill OTHER ...`), every --set key exists,
    and gating.* keys are set only where there is a gate."""
    problems: list[str] = []
    for where, text in texts(path):
        text = " ".join(text.split("%(default)s"))
        for quoted in re.findall(r"`([^`]+)`", text):
            named = command_of(quoted.split())
            if named:
                check_options(f"{where} `{quoted}`", named[0], " ".join(named[1]), problems)
                text = text.replace(f"`{quoted}`", "")
        rest = []  # the text without its example lines (one may begin with another: not str.replace)
        for line in text.splitlines():
            named = command_of(line.split())
            if line.strip().startswith("adaptive-skill") and named:
                check_options(f"{where} example {line.strip()!r}", named[0], " ".join(named[1]), problems)
            else:
                rest.append(line)
        check_options(where, path, "\n".join(rest), problems)
    assert not problems, "\n".join(problems)


def cli_table() -> dict[tuple, str]:
    """docs/cli.md's "Every command" table: the command each row's first cell names (`adaptive-skill
    skills list ...` is ("skills", "list")) and its rows' text, joined (curve has two)."""
    page = (REPO / "docs" / "cli.md").read_text()
    section = page.split("\n## Every command\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[tuple, str] = {}
    for line in section.splitlines():
        match = re.match(r"\| `adaptive-skill ([^`]*)`", line)
        if match:
            path = command_of(match.group(1).split())[0]
            rows[path] = f"{rows.get(path, '')}\n{line}"
    return rows


def mentioned(option: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_docs_cli_has_a_row_for_every_command_naming_every_option():
    """docs/cli.md is the one place that lists the commands (the README links to it). Every command the
    parser has, down to each subcommand, has a row; each long option its --help shows (not -h/--help,
    not an old spelling hidden from help) is named in that row; and a row names no option its command
    lacks. An option added to the parser without a word in docs/cli.md fails here."""
    rows = cli_table()
    leaves = [path for path in COMMANDS if not subcommands(PARSERS[path])]
    problems = [f"no row for `adaptive-skill {' '.join(p)}`" for p in leaves if p not in rows]
    problems += [f"a row for `adaptive-skill {' '.join(p) or '(no command)'}`, which is not a command that runs"
                 for p in rows if p not in leaves]
    for path in leaves:
        if path not in rows:
            continue
        have = options(PARSERS[path]) - {"-h", "--help"}
        name = f"`adaptive-skill {' '.join(path)}`"
        problems += [f"{name}: its row leaves out {option}" for option in sorted(have)
                     if option.startswith("--") and not mentioned(option, rows[path])]
        named = set(re.findall(r"(?<![\w-])--?[a-zA-Z][\w-]*", rows[path]))
        problems += [f"{name}: its row names {flag}, which it does not take" for flag in sorted(named - have)]
    assert not problems, "docs/cli.md, Every command:\n" + "\n".join(problems)


# -- old spellings: they still work for a release, and say so -------------------------------------------

DEPRECATED = [
    (["report", "runs/x"], {"run": "runs/x"}, "report RUN is deprecated; use report --run DIR"),
    (["review", "runs/x", "--port", "0"], {"run": "runs/x"}, "review RUN is deprecated; use review --run DIR"),
    (["replay", "--run", "r", "--tag", "evo-1", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["skills", "list", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["skills", "log", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["tasks", "list", "--suite", "s", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["tasks", "validate", "--suite", "s", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["run", "--suite", "s", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["solve", "--task-dir", "t", "--json"], {"format": "json"}, "--json is deprecated; use --format json"),
    (["images", "build", "--suite", "s", "--no-progress"], {"quiet": True}, "--no-progress is deprecated; use --quiet"),
    # a suite was a positional SUITE in three commands; a task's directory a positional in solve and
    # --task in judge (where run and tasks validate take --task ID); review wrote with --export and
    # skills export to a positional DEST
    (["tasks", "list", "s"], {"suite": "s"}, "tasks list SUITE is deprecated; use tasks list --suite DIR"),
    (["tasks", "validate", "s", "--task", "a"], {"suite": "s", "task": ["a"]},
     "tasks validate SUITE is deprecated; use tasks validate --suite DIR"),
    (["images", "build", "s"], {"suite": "s"}, "images build SUITE is deprecated; use images build --suite DIR"),
    (["solve", "t"], {"task_dir": "t"}, "solve TASK_DIR is deprecated; use solve --task-dir DIR"),
    (["judge", "traj.json", "--task", "t"], {"task_dir": "t"}, "--task is deprecated; use --task-dir DIR"),
    (["review", "--run", "r", "--export", "f.csv"], {"out": "f.csv"}, "--export is deprecated; use --out"),
    (["skills", "export", "d", "--run", "r"], {"out": "d"},
     "skills export DEST is deprecated; use skills export --out DIR"),
    (["novelty", "seed", "--output", "f.json"], {"out": "f.json"}, "--output is deprecated; use --out"),
    (["novelty-experiment", "--problems", "p.yaml", "--output", "d"], {"out": "d"},
     "--output is deprecated; use --out"),
    # novelty's own -v showed details and tracebacks; it still does both
    (["novelty", "seed", "-v"], {"details": True, "verbose": True}, "-v is deprecated; use --details"),
    (["novelty", "seed", "--verbose"], {"details": True, "verbose": True}, "--verbose is deprecated; use --details"),
]


@pytest.mark.parametrize("argv, expected, note", DEPRECATED, ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_old_spellings_still_work_and_are_noted(argv, expected, note):
    args = PARSER.parse_args(argv)
    assert {key: getattr(args, key, None) for key in expected} == expected
    notes = getattr(args, "deprecated_spellings", [])
    assert len(notes) == 1 and notes[0].startswith(note), notes


@pytest.mark.parametrize("argv, expected", [
    (["report", "--run", "runs/x"], {"run": "runs/x"}),
    (["review", "--run", "runs/x"], {"run": "runs/x"}),
    (["skills", "list", "--format", "json"], {"format": "json"}),
    (["skills", "list"], {"format": "text"}),
    (["novelty", "seed", "-o", "f.json"], {"out": "f.json"}),
    (["novelty", "seed", "--details"], {"details": True, "verbose": False}),
    (["-v", "novelty", "seed"], {"details": False, "verbose": True}),  # the global -v works there
    (["novelty", "seed"], {"details": False, "verbose": False}),
    (["run", "--suite", "s", "-o", "out"], {"out": "out"}),
    (["tasks", "list", "--suite", "s"], {"suite": "s"}),
    (["tasks", "list", "--run", "r"], {"suite": None, "run": "r"}),
    (["tasks", "validate", "--suite", "s", "--task", "a"], {"suite": "s", "task": ["a"]}),
    (["images", "build", "--suite", "s", "-q"], {"suite": "s", "quiet": True}),
    (["solve", "--task-dir", "t", "-q"], {"task_dir": "t", "quiet": True}),
    (["judge", "traj.json", "--task-dir", "t"], {"task_dir": "t", "format": "text"}),
    (["review", "--run", "r", "-o", "f.csv"], {"out": "f.csv"}),
    (["skills", "export", "--out", "d", "--run", "r"], {"out": "d"}),
    (["spiral", "scan", "traj.json"], {"format": "text"}),
    (["trajectory", "signals", "traj.json", "--format", "json"], {"format": "json"}),
])
def test_new_spellings_note_nothing(argv, expected):
    args = PARSER.parse_args(argv)
    assert {key: getattr(args, key, None) for key in expected} == expected
    assert not getattr(args, "deprecated_spellings", [])


@pytest.mark.parametrize("argv", [["report"], ["review"], ["report", "a", "--run", "b"], ["replay", "--tag", "evo-1"]])
def test_a_run_directory_is_required_once(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    assert "--run" in capsys.readouterr().err


@pytest.mark.parametrize("argv, option", [
    (["tasks", "validate"], "--suite"), (["tasks", "validate", "a", "--suite", "b"], "--suite"),
    (["images", "build"], "--suite"), (["solve"], "--task-dir"), (["solve", "a", "--task-dir", "b"], "--task-dir"),
    (["judge", "traj.json"], "--task-dir"), (["skills", "export", "--run", "r"], "--out"),
])
def test_a_required_option_is_given_once_in_either_spelling(argv, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert option in err and err.count("error:") == 1, err


def test_the_note_follows_a_finished_command_and_never_an_error(capsys, tmp_path):
    """The deprecation line comes after the command's work, on stderr; bad input stays one line."""
    code = main(["skills", "list", "--workspace", str(REPO / "workspace"), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and "check-your-work" in {s["name"] for s in json.loads(out)}
    assert err == "warning: --json is deprecated; use --format json\n"
    assert main(["skills", "list", "--workspace", str(REPO / "workspace"), "--format", "json"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["skills", "log", "--run", str(tmp_path / "nope"), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such run directory" in err
