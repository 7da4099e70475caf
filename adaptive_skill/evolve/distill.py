"""The distilling evolver (evolver.mode: distill): the agent's own passed attempts as skills; no model.

The 1.5B evolver knows no fix it has not been shown (docs/llm.md), but the agent, sampling,
sometimes does the right thing. This evolver writes what the passed attempts of the batch did: for
each task that passed (the judge's score at or above judge.pass_threshold; its tests' result instead
with trajectory_only off), its worked commands (trajectory/worked.py;
observations/<task>/worked.json, or explored.json for a task only a hotter attempt passed, the
explore phase) go into a skill of its category, `<category>-worked-commands`, as a numbered entry:
the first sentence of the task's instruction and the commands; the whole instruction, on one line of
at most 400 characters, goes into the frontmatter's metadata as `entry-<number>-task`, from which
the skill in the prompt learns where the skill belongs (agent/inline.py, adaptive_skill/entries.py).
Entries already there are kept, the oldest dropped when the body is full; a category without a skill
gets one while the budget (max_skills) has room, the categories with most passed tasks first, and
when more want one than there are free slots the last slot is `mixed-worked-commands`, shared by the
categories left (run 18 left three of seven kinds with nothing under a budget of five). Skills this
evolver did not write are never touched. An entry that was new in a change the gate rejected earlier
in the run (the rejected candidates of evolve/library.py) is not proposed again: the same
instruction with the same commands.

The judge's passes include wrong ones: nothing here decides whether an entry helps; the gate does.
A distilled entry names its own task's paths by design (its steps say so), so the rules' check for a
failed task's files does not apply; a command that failed anywhere in the record is still dropped,
and everything else goes through the rules step every evolver shares. The record of what was read
and written is `distill.json` in the evolve directory.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from adaptive_skill.config import EvolveConfig
from adaptive_skill.entries import INSTRUCTION_CHARS, INTRO, TASK_KEY, first_sentence, one_line, printable_line
from adaptive_skill.evolve import lessons as lesson_rules
from adaptive_skill.evolve.digest import read_bounded, read_digest, read_host_json
from adaptive_skill.evolve.evolver import apply_editable, copy_editable, enforce_rules, settle
from adaptive_skill.evolve.grouping import Item, group_names
from adaptive_skill.evolve.library import current_skills, rejected_commits, rejected_skills
from adaptive_skill.evolve.outcome import Changes, EvolveOutcome
from adaptive_skill.evolve.relevance import Failures, fold, installs
from adaptive_skill.evolve.rules import skill_names
from adaptive_skill.files import write_json_atomic
from adaptive_skill.observe.agreement import AGREED
from adaptive_skill.observe.observations import EXPLORED, TESTS, WORKED, passed
from adaptive_skill.skills import NAME_PATTERN, SkillFormatError, category_key, parse_skill_text

if TYPE_CHECKING:
    from adaptive_skill.runs import RunDir

RECORD = "distill.json"
SUFFIX = "-worked-commands"
MIXED = "mixed" + SUFFIX  # the last free slot, shared by the categories left without one
COMMAND_CHARS = 220
BODY_CHARS = 1400  # within the 300-token skill placed in the prompt (skill_in_prompt_tokens) and skills.py's 2000
DESCRIPTION_CHARS = 1000
CHECK = "- `cat` or `ls -l` the result the instruction names."
_ENTRY = re.compile(r"^(\d+)\. (\S.*)$")
_COMMAND = re.compile(r"^ {3}`([^`]+)`$")
_PRINTABLE = re.compile(r"[^\x20-\x7e\u00a0-\uffff]")
_NAMED_PATH = re.compile(r"(?<![\w/.~])/[\w.-]+(?:/[\w.-]+)*")  # an absolute path an instruction names


@dataclass
class Entry:
    """One passed task in a skill: its instruction's first sentence and its worked commands."""

    sentence: str
    commands: list[str]
    task: str = ""  # "" for an entry read back from a skill
    category: str = ""  # its task's category_key; read back from MIXED, its section's ("" before 2026-11-29)
    instruction: str = ""  # its task's instruction on one line (entries.one_line); "" unknown (before 2026-12-06)

    def text(self, number: int) -> str:
        return f"{number}. {self.sentence}\n" + "\n".join(f"   `{c}`" for c in self.commands)

    def key(self) -> tuple[str, tuple[str, ...]]:
        return self.sentence, tuple(self.commands)


@dataclass
class Passed:
    task: str
    category: str
    entry: Entry
    explored: bool  # only a hotter attempt (the explore phase) passed it
    family: str = ""  # the task's declared family: its entries make a skill of their own (group)

    @classmethod
    def of(cls, task: str, category: str, sentence: str, commands: list[str], explored: bool,
           family: str = "", instruction: str = "") -> Passed:
        """A passed task's entry: its last three commands; no category is "uncategorized", as Task's."""
        category = category or "uncategorized"
        return cls(task, category, Entry(sentence, commands[-3:], task, category_key(category), one_line(instruction)),
                   explored, family)

    @property
    def group(self) -> str:
        """What its skill is named after: its family where one is set (evolver.group family: one
        recipe per skill, so the gate per skill drops a wrong recipe without its neighbours), else
        its category."""
        return self.family or self.category


@dataclass
class Plan:
    """What one evolve call writes: per skill, its entries (kept and new)."""

    skills: dict[str, list[Entry]] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)  # skill -> the category its description names
    new: dict[str, list[str]] = field(default_factory=dict)  # skill -> tasks added
    left: dict[str, str] = field(default_factory=dict)  # task -> why it was not written


class DistillEvolver:
    def __init__(self, config: EvolveConfig, *, run: RunDir | None = None):
        self.config = config
        self.run = run  # where the changes the gate rejected are found (its mutation_rejected events)

    def evolve(self, workspace: Path, observations: Path, out_dir: Path, *, history: list[str] | None = None,
               drafts: Path | None = None, task_id: str = "evolve") -> EvolveOutcome:
        """`history` and `drafts` are not read: what is written is what passed, and not what the gate
        rejected before (read from the workspace's git history, `self.run`'s rejected commits)."""
        out_dir.mkdir(parents=True, exist_ok=True)
        c = self.config
        outcome = EvolveOutcome(changes=Changes(), status="no change", trajectories=[])
        record: dict[str, Any] = {"task_id": task_id, "passed": [], "written": {}, "left": {}}
        try:
            if not (c.evolve_skills and not c.prompt_only):
                outcome.status = "skipped"
                outcome.summary = "the distilling evolver writes skills, which may not change"
                return outcome
            digest = read_digest(observations, pass_threshold=c.judge.pass_threshold)
            shown = Failures(frozenset(digest.failed_commands), frozenset(), frozenset())
            ungrounded: dict[str, str] = {}
            found = passed_attempts(observations, c.judge.pass_threshold, shown, network=c.sandbox.allow_network,
                                    left=ungrounded)
            record["left"] = dict(ungrounded)
            record["passed"] = [{"task": p.task, "category": p.category, "explored": p.explored,
                                 "commands": p.entry.commands} for p in found]
            if not found:
                outcome.summary = ("no attempt of the batch passed with a command that changed something: "
                                   "nothing to write")
                return outcome
            with tempfile.TemporaryDirectory(prefix="adaptive-skill-distill-") as scratch:
                before, after = Path(scratch) / "before", Path(scratch) / "after"
                copy_editable(workspace, before)
                shutil.copytree(before, after, symlinks=True)
                if c.evolver.group == "similar":  # a group of alike instructions in the family's place
                    found = regrouped(found, before)
                elif c.evolver.group != "family":  # the family is kept out of what groups the entries
                    found = [dataclasses.replace(p, family="") for p in found]
                plan = plan_skills(before, found, c.max_skills, min(BODY_CHARS, c.skills.max_body_chars),
                                   shared_chars=c.skills.max_body_chars,
                                   rejected=rejected_entries(workspace, rejected_commits(self.run)),
                                   lessons=c.evolver.lessons)
                record["left"] = {**ungrounded, **plan.left}
                for name, entries in plan.skills.items():
                    write_skill(after / "skills" / name, name, plan.categories[name], entries,
                                lessons=c.evolver.lessons)

                def no_repair(_violations) -> None:  # nothing to ask: what breaks a rule is reverted
                    return None

                enforce_rules(before, after, c, outcome, no_repair, failures=shown)
                settle(before, after, c, outcome, failures=shown)
                apply_editable(after, workspace)
            kept = {name: tasks for name, tasks in plan.new.items()
                    if f"skills/{name}" not in {p for v in outcome.reverted for p in v.paths}}
            record["written"] = kept
            if c.evolver.lessons:  # of the skills written, as record["written"]
                record["lessons"] = {name: stated_rules(plan.skills[name], shared=not plan.categories[name])
                                     for name in kept}
            outcome.status = "submitted" if outcome.mutated else "no change"
            added = "; ".join(f"{name}: {', '.join(tasks)}" for name, tasks in kept.items())
            outcome.summary = (f"distilled the worked commands of {sum(map(len, kept.values()))} passed task(s) "
                               f"({added})" if outcome.mutated else
                               "the passed attempts' commands are in the skills already, or broke a rule")
            return outcome
        finally:
            record["status"], record["summary"] = outcome.status, outcome.summary
            write_json_atomic(out_dir / RECORD, record)


def acts_on_what_it_names(instruction: str, commands: list[str]) -> bool:
    """Whether `commands` name one of the absolute paths `instruction` names (True when it names
    none): as an argument, a `cd` or `git -C` target, or a prefix of one. An entry whose commands
    touch nothing its task names teaches nothing about that task: run 26 distilled `git init` for
    "In the git repository `/app/repo`, create a branch" (its two attempts agreed, both wrong), the one
    wrong entry of runs 25 and 26 that acted on none of its task's paths (docs/observe.md)."""
    named = {p.rstrip(".") for p in _NAMED_PATH.findall(instruction)} - {""}
    return not named or any(path in command for path in named for command in commands)


def passed_attempts(observations: Path, pass_threshold: float, failures: Failures, *,
                    network: bool = False, left: dict[str, str] | None = None) -> list[Passed]:
    """The batch's tasks that passed, each with its first passing attempt's worked commands (the
    batch's own, else the explore phase's; with explore.agree, the attempt the vote counted,
    agreed.json), in task order; a task whose commands are all dropped
    (too long, a backtick, a command that failed in the record, an install without a network) is
    left out, and so is one whose commands name none of the paths its instruction names
    (acts_on_what_it_names; `left` gets the task and why)."""
    if observations.is_symlink() or not observations.is_dir():
        return []
    found = []
    for folder in sorted(p for p in observations.iterdir() if p.is_dir() and not p.is_symlink()):
        worked = _json(folder / WORKED)
        verdict = _json(folder / "verdict.json")
        score = verdict.get("score")
        score = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
        tests = _json(folder / TESTS).get("passed")
        commands, explored = None, False
        vote = _json(folder / AGREED)
        if vote:  # explore.agree: the vote over the task's attempts decides, not the batch's verdict
            commands, explored = (vote.get("commands"), vote.get("attempt") != 0) if vote.get("passed") is True \
                else (None, False)
        elif passed(score, tests if isinstance(tests, bool) else None, pass_threshold):
            commands = worked.get("commands")
        else:
            attempts = _json(folder / EXPLORED, list)
            hit = next((a for a in attempts if isinstance(a, dict) and a.get("passed") is True), None)
            commands, explored = (hit.get("commands"), True) if hit else (None, False)
        kept = [c for c in (commands if isinstance(commands, list) else [])
                if isinstance(c, str) and _usable(c) and fold(c) not in failures.commands
                and (network or not installs([c]))]
        instruction = read_bounded(folder / "instruction.md")
        sentence = first_sentence(instruction)
        if not kept or not sentence:
            continue
        if not acts_on_what_it_names(instruction, kept[-3:]):  # the last three: what Passed.of keeps
            if left is not None:
                left[folder.name] = "its commands name none of the paths its instruction names"
            continue
        category = worked.get("category") if isinstance(worked.get("category"), str) else ""
        family = worked.get("family") if isinstance(worked.get("family"), str) else ""
        found.append(Passed.of(folder.name, category, sentence, kept, explored, family, instruction))
    return found


def regrouped(found: list[Passed], before: Path) -> list[Passed]:
    """evolver.group similar: each passed attempt's `family` the group evolve/grouping.py gives it,
    among the skills this evolver wrote in `before` (each its category's, by its metadata)."""
    existing: dict[str, tuple[str, list[Item]]] = {}
    for name in sorted(skill_names(before)):
        path = before / "skills" / name / "SKILL.md"
        if name.endswith(SUFFIX) and name != MIXED and written_here(path) and (entries := read_entries(path)):
            metadata = parse_skill_text(path.read_text(encoding="utf-8", errors="replace"))[0].get("metadata")
            category = metadata.get("category") if isinstance(metadata, dict) else None
            category = category_key(category) if isinstance(category, str) else ""
            existing[name.removesuffix(SUFFIX)] = (category, [Item(category, e.instruction or e.sentence,
                                                                   tuple(e.commands)) for e in entries])
    names = group_names([Item(category_key(p.category), p.entry.instruction or p.entry.sentence,
                              tuple(p.entry.commands)) for p in found], existing)
    return [dataclasses.replace(p, family=name) for p, name in zip(found, names, strict=True)]


def plan_skills(before: Path, found: list[Passed], max_skills: int, body_chars: int, *,
                shared_chars: int | None = None,
                rejected: frozenset[tuple[str, tuple[str, ...]]] = frozenset(), lessons: bool = False) -> Plan:
    """Per category skill (per family skill, where the suite declares the task's family: Passed.group)
    its entries: those it has (read back from its SKILL.md) and the new ones,
    the oldest dropped while the body would be over `body_chars`. MIXED is placed one section at a
    time (agent/inline.py): each kind's part of it within `body_chars`, the whole within
    `shared_chars` (the format's limit; default `body_chars`). A category without a skill gets
    one while there is room under `max_skills`, the categories with most passed tasks first; when
    more categories want one than there are free slots, the last slot is MIXED, shared by those left
    (their entries taken in turn, so none is crowded out first). A new entry in `rejected`
    (Entry.key) is left out. `lessons`: the bodies hold the rules their entries share (body)."""
    plan = Plan()
    by_group: dict[str, list[Passed]] = defaultdict(list)  # a family's entries, else a category's
    for item in found:
        if item.entry.key() in rejected:
            plan.left[item.task] = "the same entry was new in a change the gate rejected"
        else:
            by_group[item.group].append(item)
    existing = skill_names(before)
    free = max(0, max_skills - len(existing))
    ordered = sorted(by_group.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    for group, items in ordered:
        if skill_name(group) is None:
            for item in items:
                plan.left[item.task] = f"its {'family' if item.family else 'category'} {group[:40]!r} gives no " \
                                       "valid skill name"
    ordered = [(group, items) for group, items in ordered if skill_name(group) is not None]
    wanting = sum(1 for group, _ in ordered if skill_name(group) not in existing)
    mixed = MIXED in existing and written_here(before / "skills" / MIXED / "SKILL.md")
    if MIXED not in existing and wanting > free >= 1:
        free, mixed = free - 1, True
    shared: list[list[Passed]] = []
    for group, items in ordered:
        name = str(skill_name(group))
        if name in existing and not written_here(before / "skills" / name / "SKILL.md"):
            for item in items:
                plan.left[item.task] = f"a skill {name} exists that this evolver did not write"
        elif name != MIXED and (name in existing or free > 0):
            free -= name not in existing
            _add(plan, before, name, printable_line(items[0].category), items, existing, body_chars, body_chars,
                 lessons=lessons)
        elif mixed:
            shared.append(items)
        else:
            for item in items:
                plan.left[item.task] = f"no room for a skill {name}: {max_skills} skills already"
    if shared:
        in_turn = [item for row in zip_longest(*shared) for item in row if item is not None]
        _add(plan, before, MIXED, "", in_turn, existing, body_chars, shared_chars or body_chars, lessons=lessons)
    return plan


def _add(plan: Plan, before: Path, name: str, category: str, items: list[Passed], existing: set[str],
         body_chars: int, total_chars: int, *, lessons: bool = False) -> None:
    """Plan skill `name`: its entries (read back when it exists) and `items` new at their end, the
    oldest dropped while the body is over `total_chars` (MIXED: the oldest of its largest kind, see
    _oldest) or, for MIXED, while a kind's part of it as placed is over `body_chars` (that kind's
    oldest); category "" for MIXED. Run 24's shared skill was held to the one-kind limit, 1400 of
    the format's 2000 characters, and left out `cd /app/repo && git tag -a v1.0 ...` though a git
    task is shown only its own section."""
    entries = read_entries(before / "skills" / name / "SKILL.md") if name in existing else []
    known = {e.sentence for e in entries}
    added = []
    for item in items:
        if item.entry.sentence in known:
            plan.left[item.task] = f"{name} has an entry for this instruction already"
            continue
        entries.append(item.entry)
        known.add(item.entry.sentence)
        added.append(item.task)
    shared = not category
    while entries:
        if len(body(entries, shared=shared, lessons=lessons)) > total_chars:
            index = _oldest(entries, shared=shared)
        elif shared and (wide := next((e.category for e in entries if len(body(
                [f for f in entries if f.category == e.category], shared=True, lessons=lessons)) > body_chars),
                None)) is not None:
            index = next(i for i, e in enumerate(entries) if e.category == wide)
        else:
            break
        dropped = entries.pop(index)
        if dropped.task in added:
            added.remove(dropped.task)
            plan.left[dropped.task] = f"{name} is full"
    if added:
        plan.skills[name], plan.new[name], plan.categories[name] = entries, added, category


def _oldest(entries: list[Entry], *, shared: bool) -> int:
    """Which entry goes when a body is full: the first, the oldest. The shared skill is read back
    grouped by kind, so its first entry is the first kind's, not the oldest: there the first entry of
    the kind with most entries goes (ties: the kind that comes first), so no kind is drained while
    another keeps entries older than its own."""
    if not shared:
        return 0
    counts = Counter(e.category for e in entries)
    kind = next(e.category for e in entries if counts[e.category] == max(counts.values()))
    return next(i for i, e in enumerate(entries) if e.category == kind)


def skill_name(category: str) -> str | None:
    name = category_key(category) + SUFFIX
    return name if NAME_PATTERN.match(name) else None


def body(entries: list[Entry], *, shared: bool = False, lessons: bool = False) -> str:
    """The skill's body. `shared` (MIXED): the entries grouped by category, each group under a
    `### <category>` line, so the skill placed in the prompt keeps only the task's own (agent/inline.py).
    `lessons` (evolver.lessons): each group's rules (evolve/lessons.py) open it, above its entries,
    where a body cut to fit the prompt keeps them; they are derived from the entries, never read back."""
    entries = ordered(entries, shared=shared)
    lines: list[str] = []
    section: str | None = None
    for number, entry in enumerate(entries, 1):
        group = entry.category if shared else ""
        if group != section:
            section = group
            if group:
                lines.append(f"### {group}")
            if lessons:
                lines.extend(lesson_rules.lines(e.commands for e in entries if (e.category if shared else "") == group))
        lines.append(entry.text(number))
    text = "\n".join(lines)
    return f"## Steps\n{INTRO}\n{text}\n\n## Verification\n{CHECK}\n"


def ordered(entries: list[Entry], *, shared: bool) -> list[Entry]:
    """The entries in the order the body numbers them: MIXED's grouped by category, first seen first."""
    if not shared:
        return list(entries)
    order = list(dict.fromkeys(e.category for e in entries))
    return [e for category in order for e in entries if e.category == category]


def stated_rules(entries: list[Entry], *, shared: bool) -> dict[str, list[str]]:
    """Per group of a skill's entries (its category; "" for a one-kind skill), the keys of the rules
    its body states (evolve/lessons.py): the distill record's `lessons`."""
    groups: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[entry.category if shared else ""].append(entry)
    return {group: [rule.key for rule in lesson_rules.rules_for(e.commands for e in items)]
            for group, items in groups.items()}


def write_skill(folder: Path, name: str, category: str, entries: list[Entry], *, lessons: bool = False) -> None:
    """skills/<name>/SKILL.md: its description the entries' sentences (what the best-matching skill in
    the prompt, skill_in_prompt_tokens, is ranked by), its steps the entries, the categories it
    is written for as `metadata.category` (skills.skill_categories: what the prompt places it for),
    and each entry's task instruction as `metadata.entry-<number>-task` (where it is placed)."""
    described = "; ".join(e.sentence.rstrip(".") for e in entries)
    kind = f"{category[:40]} tasks" if category else "tasks of several kinds"  # "": MIXED
    description = f"Use for {kind} like these: {described}"[:DESCRIPTION_CHARS]
    kinds = [category_key(category)] if category else list(dict.fromkeys(e.category for e in entries if e.category))
    front: dict[str, Any] = {"name": name, "description": description}
    tasks = {TASK_KEY.format(number): e.instruction
             for number, e in enumerate(ordered(entries, shared=not category), 1) if e.instruction}
    if kinds or tasks:
        front["metadata"] = {**({"category": ", ".join(kinds)} if kinds else {}), **tasks}
    text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=float("inf"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\n{text}---\n\n{body(entries, shared=not category, lessons=lessons)}",
                                     encoding="utf-8")


def written_here(path: Path) -> bool:
    """Whether a SKILL.md has the body this evolver writes (its steps open with INTRO), or is missing
    from its folder (nothing there to keep)."""
    try:
        if not os.path.lexists(path):
            return True
        if path.is_symlink() or not path.is_file():
            return False
        _, text = parse_skill_text(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SkillFormatError):
        return False
    return text.lstrip("\n").startswith(f"## Steps\n{INTRO}\n")


def rejected_entries(workspace: Path, commits: list[str]) -> frozenset[tuple[str, tuple[str, ...]]]:
    """The entries (Entry.key) that were new in a candidate the gate rejected: those of its distilled
    skills that the accepted library does not hold (a rejected candidate carries the kept entries too)."""
    if not commits:
        return frozenset()
    kept = {e.key() for s in current_skills(workspace) for e in entries_of(s.text)}
    return frozenset(e.key() for s in rejected_skills(workspace, commits) for e in entries_of(s.text)) - kept


def read_entries(path: Path) -> list[Entry]:
    """The numbered entries of a skill this evolver wrote; lines of any other shape are not entries."""
    try:
        if path.is_symlink() or not path.is_file():
            return []
        return entries_of(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []


def entries_of(skill_md: str) -> list[Entry]:
    """read_entries over a SKILL.md's text (a version read from git); an entry's instruction is its
    `metadata.entry-<number>-task` (a string; "" when there is none)."""
    try:
        front, text = parse_skill_text(skill_md)
    except SkillFormatError:
        return []
    metadata = front.get("metadata") if isinstance(front.get("metadata"), dict) else {}
    entries: list[Entry] = []
    section = ""
    for line in text.splitlines():
        if line.startswith("### "):
            section = category_key(line[4:])
        elif line.startswith("#"):
            section = ""
        elif (entry := _ENTRY.match(line)) and printable_line(entry.group(2)) == entry.group(2):
            task = metadata.get(TASK_KEY.format(int(entry.group(1)[:6])))
            entries.append(Entry(entry.group(2)[:INSTRUCTION_CHARS], [], category=section,
                                 instruction=one_line(task) if isinstance(task, str) else ""))
        elif (command := _COMMAND.match(line)) and entries and _usable(command.group(1)) \
                and len(entries[-1].commands) < 3:
            entries[-1].commands.append(command.group(1))
    return [e for e in entries if e.commands]


def _usable(command: str) -> bool:
    """A command fit for a code span on one line: printable, no backtick, bounded, no space at either
    end. Spaces inside are kept: a here-document's quoted lines keep their indentation (run 19's
    `'  id INTEGER PRIMARY KEY,'` was dropped while this asked for single spaces)."""
    return (bool(command) and len(command) <= COMMAND_CHARS and "`" not in command
            and not _PRINTABLE.search(command) and command == command.strip())


def _json(path: Path, kind: type = dict) -> Any:
    """An observation file the agent's sandbox may have shaped: `kind` (dict or list), else empty."""
    data = read_host_json(path, 200_000)
    return data if isinstance(data, kind) else kind()
