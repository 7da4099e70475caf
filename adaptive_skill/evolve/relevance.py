"""Does a proposed skill answer the failures it was shown? Refusals for the structured evolver, and
(unusable_step, task_specific) what no skill of any evolver mode may teach or name, which the rules
step checks against the failures the evolver was shown (Failures).

- A skill that restates the question's own rules: a run of RULE_WINDOW words of its text found in the
  rules the evolver was given. Qwen2.5-Coder-1.5B, asked for "a name in lower-case words joined by
  hyphens", wrote a skill "Use when the agent needs to convert a string to lowercase and join the words
  with hyphens"; the rules step accepted it.
- A skill that names nothing of the failures' situation: none of the programs the failed attempts ran
  (`zip`, `sqlite3`, `tar`; numbered slips such as `zip4` count as `zip`) nor an error they met
  (`command not found`, `permission denied`) appears in its description, steps or verification.

- A skill whose steps quote the record: a line of the digest (`$ zip -r ... -> exit 127: bash: zip:
  command not found`) copied as a step or a check. The 1.5B wrote such steps three times over for
  the failure it had diagnosed right, which teaches the agent to repeat it.

Pure functions over text; the terms come from the digest the evolver was shown (digest.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from adaptive_skill.trajectory.failures import missing_program

RULE_WINDOW = 5  # words in a row shared with the rules that make a restatement
# Words too common to carry a rule's meaning on their own (a shared run must hold RULE_WINDOW others).
_FILLER = frozenset("a an and the of to in on for or is it its be by as at with that this from".split())
_WORD = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
# Error phrases worth naming in a skill (the kernel's error lines carry them); lower case.
ERROR_PHRASES = ("command not found", "not found", "permission denied", "no such file", "not a directory",
                 "is a directory", "syntax error", "unexpected eof", "not installed", "no module named",
                 "already exists", "not permitted", "unrecognized option", "invalid option", "timed out",
                 "unable to open", "not a git repository", "nothing to commit")
# Words that begin a command without being its program.
_PREFIXES = frozenset({"sudo", "env", "time", "nohup", "exec", "command", "builtin", "then", "do", "if", "!"})
_SHELL_WORDS = frozenset({"cd", "echo", "true", "false", "test", "[", "[[", "export", "set", "ls", "cat"})


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1]


def restated_rule(text: str, rules: Iterable[str], window: int = RULE_WINDOW) -> str | None:
    """The first run of `window` meaningful words that `text` shares with `rules`, or None."""
    def runs(source: str) -> Iterable[tuple[str, ...]]:
        kept = [w for w in words(source) if w not in _FILLER]
        return (tuple(kept[i:i + window]) for i in range(len(kept) - window + 1))

    known = {run for rule in rules for run in runs(rule)}
    return next((" ".join(run) for run in runs(text) if run in known), None)


def program(command: str) -> str | None:
    """The program a shell command runs first (`sudo apt-get install` -> apt-get), lower case; None
    for prose run as a command ("The task is done.": a capitalised first word)."""
    for token in command.strip().split():
        token = token.strip("'\"()")
        if not token or "=" in token.split("/")[0] or token in _PREFIXES:
            continue  # VAR=value prefixes, sudo, env
        name = token.rsplit("/", 1)[-1]
        if not name or name[0].isupper() or name.lower() in _FILLER:
            return None
        return name.lower()
    return None


def _stem(word: str) -> str:
    """`zip4` -> `zip`, `python3` -> `python`: a model's numbered slips and versioned names alike."""
    return word.rstrip("0123456789") or word


def situation_terms(commands: Iterable[str], errors: Iterable[str]) -> set[str]:
    """What a skill about these failures would name: the programs run (not `cd`, `echo`...), and the
    error phrases and programs named in the error lines ("bash: zip: command not found" -> zip)."""
    terms: set[str] = set()
    for command in commands:
        name = program(command)
        if name and name not in _SHELL_WORDS and len(_stem(name)) >= 2:
            terms.add(_stem(name))
    for line in errors:
        low = line.lower()
        terms.update(phrase for phrase in ERROR_PHRASES if phrase in low)
        if (name := missing_program(line)) and name.lower() not in _FILLER:  # not prose run as a command
            terms.add(_stem(name.lower()))
    return terms


def names_situation(text: str, terms: set[str]) -> bool:
    """True when `text` names one of `terms` (a program as a word, its stem too; a phrase anywhere),
    or when there are no terms to name."""
    if not terms:
        return True
    low = text.lower()
    present = {_stem(w) for w in words(low)} | set(words(low))
    return any((" " in term and term in low) or term in present for term in terms)


# A line of the evolver's digest (digest.py): "$ COMMAND -> exit N", "-> format", "-> tool", "-> timeout".
_RECORD_LINE = re.compile(r"^\s*(?:-\s*)?\$\s.*\s->\s(?:exit\b|format\b|tool\b|timeout\b|timed out\b)", re.IGNORECASE)


# A package manager's install, a download, or "install X" / "installing X" anywhere in a step ("Install
# `X`", the quickstart of 2026-11-27; "... by installing git and configuring it", run 13's cycle 3):
# none works without a network. "is installed" names a state, not a step.
_INSTALL = re.compile(r"\b(?:apt-get|apt|yum|dnf|apk|brew|pip3?|npm|conda|gem)\b.*\binstall\b|\b(?:curl|wget)\s"
                      r"|\binstall(?:ing)?\s+\W*\w", re.IGNORECASE)


# "Never pip install: there is no network" warns, it does not install (a frontier model writes that).
_NEGATION = re.compile(r"\b(?:no|not|never|don't|do not|cannot|can't|without)\b", re.IGNORECASE)


def installs(lines: Iterable[str]) -> str | None:
    """The first of `lines` that installs or downloads something (not one that warns against it); or None."""
    for line in lines:
        # the negation must govern the install: within the two words before it ("If jq is not
        # installed, run apt-get install jq" installs)
        if (found := _INSTALL.search(line)) and not _NEGATION.search(" ".join(line[:found.start()].split()[-2:])):
            return line
    return None


_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s+")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def fold(command: str) -> str:
    """A command compared as text: a leading `$ ` and runs of whitespace do not count."""
    return " ".join(command.strip().removeprefix("$ ").split())


@dataclass(frozen=True)
class Failures:
    """What the evolver was shown of a batch's failures that no skill may carry back into the library
    (digest.Digest.failures): the commands that failed (whitespace folded), the failed tasks' ids, and
    the files their instructions name (absolute paths of two parts or more, the system's own excepted)."""

    commands: frozenset[str] = frozenset()
    tasks: frozenset[str] = frozenset()
    paths: frozenset[str] = frozenset()


NO_FAILURES = Failures()  # no record: nothing is held against a skill


def task_specific(name: str, text: str, failures: Failures) -> list[str]:
    """Why a skill (its name and its text: description, steps, checks) is the answer to the failed tasks
    rather than a skill for their kind; one sentence per reason, none when it is general. A task's id
    (of four characters or more) in the name or the text, or a file a failed task's instruction names.
    The quickstart of 2026-11-27 sent `git-branch-feature`, "create a new branch named `feature` in the
    repository `/app/repo`", named after its task, to the gate."""
    body = f"{name} {text}".lower()
    problems = []
    if named := sorted(task for task in failures.tasks if len(task) >= 4 and task.lower() in body):
        problems.append(f"the skill names the task(s) {', '.join(named)}: its name and steps must be general, for "
                        "every task of the kind")
    if files := sorted(path for path in failures.paths if path.lower() in body):
        problems.append(f"the skill names the failed tasks' own files ({', '.join(files)[:120]}): say what to do "
                        "with any such file, not with these")
    return problems


def unusable_step(steps: Iterable[str], failures: Failures, *, network: bool) -> str | None:
    """Why steps cannot help the agent, as one sentence for the evolver; or None. Two cases, for every
    evolver mode (the rules step) and for the structured evolver before it writes:
    - a step is a command the record shows failing (`failures.commands`, folded): the 1.5B's skill for
      `jq: command not found` was the three failed jq commands (docs/log/results-runs.md, run 10);
    - without a network, a step installs or downloads: told so, the 1.5B still wrote "install jq"
      in 5 of 5 replies at temperature 0.7 (docs/log/results-runs.md, run 10)."""
    steps = list(steps)
    # a command is a whole step or a code span in one (the quickstart of 2026-11-27: "Then, try to create a new
    # branch using `git checkout -b feature /app/repo` again.")
    commands = [command for step in steps for command in (step, *_CODE_SPAN.findall(step))]
    if failed := next((command for command in commands if fold(command.strip("`")) in failures.commands), None):
        return (f"a step is a command that failed in the record ({failed[:80]!r}): write what the agent should "
                "run instead, with a tool the container has")
    if not network and (install := installs(steps)):
        return (f"a step installs or downloads something ({install[:80]!r}), but the containers have no network: "
                "use a tool they already have")
    return None


def body_steps(body: str) -> list[str]:
    """The lines of a SKILL.md body as steps (what unusable_step reads): each line without its list
    marker; headings, fences and blank lines are not steps."""
    lines = (_MARKER.sub("", line).strip() for line in body.splitlines())
    return [line for line in lines if line and not line.startswith(("#", "```", "~~~"))]


def quotes_record(lines: Iterable[str]) -> str | None:
    """The first of `lines` that is a line of the failures' record copied (a command with its outcome),
    not an instruction; or None."""
    return next((line for line in lines if _RECORD_LINE.match(line)), None)
