"""The lesson a group of worked commands shares (issue 52, item 4): a rule stated in words.

A distilled entry is one task's command, with that task's paths. Copied to another task it fits only
when the paths are swapped, and a model that copies literally (run 24's tag wrote `git init` where a
commit in an existing repository was asked) learns nothing it can carry. A rule is what several
entries of a kind did the same way and what a task of that kind needs whatever its paths: run git
inside the repository; write the answer into the file, not to the terminal; make the script
executable; hand sqlite3 the SQL as one quoted argument.

The rules are recognised by code in the commands of the distilled entries (no model), each stated
only when at least MIN_ENTRIES entries of the group show it: one entry's habit is its command, not a
lesson. Each rule's text is fixed here, so nothing the agent wrote reaches a rule (its commands only
choose which fixed sentences are stated; a hostile command can at worst make a rule appear). The
distiller writes them above the group's entries (evolve/distill.py), where a skill placed in the
prompt and cut to fit keeps them (agent/inline.py keeps a body's first lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MIN_ENTRIES = 2  # entries of a group that must show a pattern for its rule to be stated
PREFIX = "Rule: "  # how a rule's line opens in a skill (not an entry: distill.entries_of skips it)

# output into a named absolute path: not an error stream (`2>`, `&>`), not /dev/null
_REDIRECT = re.compile(r"(?:(?<![0-9&>])>>?|\btee(?:\s+(?:-a|--append))?)\s*['\"]?/(?!dev/)[\w.-]")
# git run in a named directory; `git init` or `git clone` there makes a repository, not one entered
_GIT_IN_REPO = re.compile(r"\bcd\s+['\"]?/\S+['\"]?\s*(?:&&|;)\s*git\b(?!\s+(?:init|clone)\b)"
                          r"|\bgit\s+-C\s+\S+(?=\s)(?!\s+(?:init|clone)\b)")
_CHMOD_X = re.compile(r"\bchmod\s+(?:-\w+\s+)*[ugoa]*\+[rw]*x")  # not an octal mode: `chmod 700` locks a directory
_SQLITE_QUOTED = re.compile(r"\bsqlite3\s+(?:-\w+\s+)*\S+\s+['\"]")
_SHEBANG = re.compile(r"(?:^|['\"\s])#!\s*/(?:usr/)?bin/")
_MKDIR_P = re.compile(r"\bmkdir\s+(?:-\w*p\w*|--parents)\b")
_JSON_PY = re.compile(r"\bpython3?\b.*(?:\bimport\s+json\b|\bjson\.(?:loads?|dumps?|tool)\b)")


@dataclass(frozen=True)
class Rule:
    key: str
    text: str
    shows: Callable[[str], bool]


RULES: tuple[Rule, ...] = (
    # no code span a failed command could equal (relevance.unusable_step reverts a skill quoting one)
    Rule("git-in-repo", "run git inside the repository the task names (`cd REPO && git ...` or `git -C REPO "
         "...`); a repository that exists needs no git init.",
         lambda c: bool(_GIT_IN_REPO.search(c))),
    Rule("write-to-file", "write the result into the file the task names (`... > FILE`); what is only "
         "printed in the terminal does not count.",
         lambda c: bool(_REDIRECT.search(c))),
    Rule("executable", "a script the task asks for must be executable: `chmod +x FILE` after writing it.",
         lambda c: bool(_CHMOD_X.search(c))),
    Rule("script-shebang", "a script starts with its interpreter line (`#!/bin/sh` or `#!/usr/bin/env "
         "python3`).",
         lambda c: bool(_SHEBANG.search(c))),
    Rule("sqlite-quoted", "give sqlite3 the database file, then the SQL as one quoted argument ending in "
         "`;` (`sqlite3 DB 'SQL;'`).",
         lambda c: bool(_SQLITE_QUOTED.search(c))),
    Rule("mkdir-parents", "create a directory that may be missing with `mkdir -p DIR` before writing into "
         "it.",
         lambda c: bool(_MKDIR_P.search(c))),
    Rule("json-python", "change JSON with python3's json module (load, set, dump), not by editing its text.",
         lambda c: bool(_JSON_PY.search(c))),
)


def rules_for(groups: Iterable[Iterable[str]], *, min_entries: int = MIN_ENTRIES) -> list[Rule]:
    """The rules at least `min_entries` of `groups` show, in RULES' order; each group is one entry's
    commands (an entry shows a rule when any of its commands does)."""
    entries = [list(commands) for commands in groups]
    return [rule for rule in RULES
            if sum(1 for commands in entries if any(rule.shows(c) for c in commands)) >= min_entries]


def lines(groups: Iterable[Iterable[str]], *, min_entries: int = MIN_ENTRIES) -> list[str]:
    """The rules of `groups` as the lines a skill holds them in."""
    return [PREFIX + rule.text for rule in rules_for(groups, min_entries=min_entries)]
