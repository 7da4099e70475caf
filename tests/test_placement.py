"""Where a distilled skill is placed in the prompt (issue 66): only where one of its entries' tasks is
close to the task (agent/inline.py, entry_similarity; skill_in_prompt_min_similarity), the entries'
task instructions stored by the distilling evolver (adaptive_skill/entries.py, evolve/distill.py).
The threshold's figures: benchmarks/perf/bench_placement.py."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import yaml

from adaptive_skill.agent.inline import ENTRY_MIN_SIMILARITY, best_skill, entry_similarity
from adaptive_skill.agent.memory import estimate_tokens
from adaptive_skill.config import EmbedderConfig
from adaptive_skill.embed import make_embedder
from adaptive_skill.entries import MAX_ENTRIES, TASK_CHARS, entry_tasks
from adaptive_skill.evolve.distill import Entry, entries_of, write_skill
from adaptive_skill.skills import Skill, check_skills
from adaptive_skill.tasks.families import instruction_words
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
FAMILIES, EASY = REPO / "benchmarks" / "terminal-families", REPO / "benchmarks" / "terminal-easy"
EMBEDDER = make_embedder(EmbedderConfig())


def instruction(suite: Path, task: str) -> str:
    return (suite / task / "instruction.md").read_text(encoding="utf-8")


def family_skill(root: Path, name: str, category: str, tasks: list[tuple[str, str]]) -> None:
    """A distilled skill as the evolver writes it: per (instruction, command) an entry with its task."""
    entries = [Entry(text.split(". ")[0][:100], [command], category=category, instruction=text)
               for text, command in tasks]
    write_skill(root / "skills" / name, name, category, entries)


def place(skills, task: str, category: str, **kwargs):
    return best_skill(skills, task, budget_tokens=300, embedder=EMBEDDER, count_tokens=estimate_tokens,
                      category=category, **kwargs)


def test_a_query_task_is_not_given_a_skill_whose_entries_create_tables(tmp_path):
    """The issue's case: a sqlite skill whose entries create tables was placed for a task asking to
    query one, by its category alone, and the agent created the table. Below the threshold it is not
    placed; with the rule off (0) it is, as before. The closeness is of words, not meaning: an entry
    worded like the task (`Create a table ... in the SQLite database ...`) is close enough."""
    creating = [instruction(EASY, "sqlite-import-csv"),
                "Create the tables of `/app/schema.sql` in a new SQLite file `/app/new.db` by running that "
                "script through sqlite3."]
    family_skill(tmp_path, "sqlite-worked-commands", "sqlite",
                 [(text, "sqlite3 /app/new.db < /app/schema.sql") for text in creating])
    skills = Workspace(tmp_path).skills()
    query = instruction(FAMILIES, "sqlite-query-to-file-error-count")
    words = instruction_words(query)
    assert max(entry_similarity(words, text) for text in creating) < ENTRY_MIN_SIMILARITY
    assert place(skills, query, "sqlite") is None
    before = place(skills, query, "sqlite", min_similarity=0)
    assert before is not None and before.name == "sqlite-worked-commands" and before.entry_similarity is None
    worded_alike = instruction(EASY, "sqlite-create-table")
    assert entry_similarity(words, worded_alike) >= ENTRY_MIN_SIMILARITY
    family_skill(tmp_path, "sqlite-worked-commands", "sqlite",
                 [(text, "sqlite3 /app/new.db < /app/schema.sql") for text in [*creating, worded_alike]])
    assert place(Workspace(tmp_path).skills(), query, "sqlite").name == "sqlite-worked-commands"


def test_a_twin_gets_its_familys_skill_and_not_its_neighbours(tmp_path):
    """Two archive families of the family suite, three instances each: the fourth instance of one
    gets its own family's skill (ranked by the closest entry), where the category and the skill's
    description words placed the neighbour's; the entry's closeness is recorded."""
    create = ["tar-create-relative-srv-reports", "tar-create-relative-alice-notes", "tar-create-relative-www-html"]
    extract = ["tar-extract-new-dir-webapp-release", "tar-extract-new-dir-sales-dataset",
               "tar-extract-new-dir-metrics-plugin"]
    family_skill(tmp_path, "tar-create-relative-worked-commands", "archives",
                 [(instruction(FAMILIES, t), "tar -czf /app/out.tgz -C /srv reports") for t in create])
    family_skill(tmp_path, "tar-extract-new-dir-worked-commands", "archives",
                 [(instruction(FAMILIES, t), "mkdir -p /app/d && tar -xf /app/a.tar -C /app/d") for t in extract])
    skills = Workspace(tmp_path).skills()
    for twin, own in (("tar-create-relative-nginx-config", "tar-create-relative-worked-commands"),
                      ("tar-extract-new-dir-dark-theme", "tar-extract-new-dir-worked-commands")):
        placed = place(skills, instruction(FAMILIES, twin), "archives")
        assert placed is not None and placed.name == own, twin
        assert placed.entry_similarity >= ENTRY_MIN_SIMILARITY and placed.to_dict()["entry_similarity"] == \
            placed.entry_similarity
    before = place(skills, instruction(FAMILIES, "tar-create-relative-nginx-config"), "archives", min_similarity=0)
    assert before.name == "tar-extract-new-dir-worked-commands"  # the neighbour, by its description's words


def test_skills_without_entries_are_placed_as_before(tmp_path):
    """Hand-written skills (the expert's, a seed's) and skills distilled before the entries stored
    their tasks are ranked as before, the rule on or off; a hand-written skill of the task's kind is
    placed when the distilled ones of that kind have no close entry."""
    shutil.copytree(REPO / "benchmarks" / "evolution" / "expert-workspace", tmp_path / "expert")
    expert = Workspace(tmp_path / "expert").skills()
    for task, category in ((instruction(FAMILIES, "sqlite-query-to-file-error-count"), "sqlite"),
                           (instruction(FAMILIES, "tar-create-relative-nginx-config"), "archives"),
                           ("Create an annotated git tag v1.2.0 in /app/repo.", "")):
        assert place(expert, task, category) == place(expert, task, category, min_similarity=0) is not None
        assert place(expert, task, category).entry_similarity is None
    old = tmp_path / "old"  # distilled before 2026-12-06: entries with no task stored
    write_skill(old / "skills" / "sqlite-worked-commands", "sqlite-worked-commands", "sqlite",
                [Entry("Create the tables of `/app/schema.sql`.", ["sqlite3 /app/new.db < /app/schema.sql"])])
    skills = Workspace(old).skills()
    query = instruction(FAMILIES, "sqlite-query-to-file-error-count")
    assert place(skills, query, "sqlite") == place(skills, query, "sqlite", min_similarity=0) is not None
    both = tmp_path / "both"
    family_skill(both, "sqlite-worked-commands", "sqlite",
                 [("Create the tables of `/app/schema.sql` in a new SQLite file `/app/new.db`.", "sqlite3 /app/new.db")])
    (both / "skills" / "sqlite-by-hand").mkdir()
    (both / "skills" / "sqlite-by-hand" / "SKILL.md").write_text(
        "---\nname: sqlite-by-hand\ndescription: Use when a task names an SQLite database.\nmetadata:\n"
        "  category: sqlite\n---\n\n## Steps\n1. Read the schema: `sqlite3 DB .schema`.\n"
        "2. Run the one statement the task asks for.\n\n## Verification\n- Query what changed.\n")
    skills = Workspace(both).skills()
    assert place(skills, query, "sqlite").name == "sqlite-by-hand"


def test_hostile_entries_neither_crash_nor_slow_placement(tmp_path):
    """A skill is untrusted text: huge or malformed metadata, thousands of numbered lines, numbers no
    entry has, entries without commands. Reading stops at its caps and placement stays fast."""
    intro = "## Steps\nCommands that did tasks of this kind (the paths are those tasks'; use your task's paths):\n"
    many = "".join(f"{n}. Count the rows of `/app/{n}.db`.\n   `sqlite3 /app/{n}.db 'select 1'`\n" for n in range(50_000))
    cases = {
        "huge-value": ({"metadata": {"category": "sqlite", "entry-1-task": "count rows " * 1_000_000}},
                       intro + "1. x\n   `true`\n"),
        "many-keys": ({"metadata": {"category": "sqlite", **{f"entry-{n}-task": "x" * 5000 for n in range(20_000)}}},
                      intro + many),
        "odd-values": ({"metadata": {"category": "sqlite", "entry-1-task": ["a list"], "entry-2-task": {"a": 1},
                                     "entry-3-task": None}}, intro + "1. a\n   `true`\n2. b\n   `true`\n3. c\n"),
        "not-a-map": ({"metadata": "entry-1-task: x"}, intro + "1. x\n   `true`\n"),
        "giant-number": ({"metadata": {"category": "sqlite", "entry-99999999999999-task": "x"}},
                         intro + "99999999999999. x\n   `true`\n" + "1" * 1_000_000 + ". y\n   `true`\n"),
        "no-commands": ({"metadata": {"category": "sqlite", "entry-1-task": "Count the rows."}},
                        intro + "1. Count the rows.\n" + "\n" * 100_000),
    }
    skills = [Skill(f"{name}-worked-commands", "Use for sqlite tasks.", text, tmp_path, front)
              for name, (front, text) in cases.items()]
    tasks = entry_tasks(cases["many-keys"][0], cases["many-keys"][1].splitlines())
    assert len(tasks) == MAX_ENTRIES and all(len(t) <= TASK_CHARS for t in tasks)
    assert len(entry_tasks(cases["huge-value"][0], cases["huge-value"][1].splitlines())[0]) <= TASK_CHARS
    assert entry_tasks(cases["odd-values"][0], cases["odd-values"][1].splitlines()) is None  # no string stored
    assert entry_tasks(cases["not-a-map"][0], cases["not-a-map"][1].splitlines()) is None
    assert entry_tasks(cases["no-commands"][0], cases["no-commands"][1].splitlines()) is None
    query = instruction(FAMILIES, "sqlite-query-to-file-error-count")
    started = time.monotonic()
    for _ in range(3):
        place(skills, query, "sqlite")
        place(skills, query * 1000, "sqlite")
    assert time.monotonic() - started < 5


def test_the_evolver_stores_each_entrys_task_on_one_line_and_reads_it_back(tmp_path):
    """The instruction is a proposer's or a suite's text: its line breaks, frontmatter markers and
    YAML characters stay inside one metadata value of at most TASK_CHARS; the skill stays valid; read
    back (a later cycle), each entry keeps its task under its new number."""
    hostile = "---\nname: evil\n---\n# Steps\n: {a: [b]} & *x ` | > " + "long " * 5000
    entries = [Entry("Evil.", ["true"], category="sqlite", instruction=hostile),
               Entry("Count rows.", ["sqlite3 /app/a.db 'select count(*) from t'"], category="sqlite",
                     instruction="Count the rows of `t` in `/app/a.db`.")]
    from adaptive_skill.entries import one_line

    entries[0].instruction = one_line(entries[0].instruction)
    write_skill(tmp_path / "skills" / "sqlite-worked-commands", "sqlite-worked-commands", "sqlite", entries)
    assert check_skills(tmp_path / "skills", require_verification=False) == []
    text = (tmp_path / "skills" / "sqlite-worked-commands" / "SKILL.md").read_text()
    front = yaml.safe_load(text.split("\n---\n")[0].removeprefix("---\n"))
    assert front["name"] == "sqlite-worked-commands" and set(front["metadata"]) == {
        "category", "entry-1-task", "entry-2-task"}
    assert "\n" not in front["metadata"]["entry-1-task"] and len(front["metadata"]["entry-1-task"]) <= TASK_CHARS
    assert [e.instruction for e in entries_of(text)] == [front["metadata"]["entry-1-task"],
                                                          "Count the rows of `t` in `/app/a.db`."]
    rewritten = entries_of(text)[1:]  # the first dropped (the body full): the second becomes entry 1
    write_skill(tmp_path / "skills" / "sqlite-worked-commands", "sqlite-worked-commands", "sqlite", rewritten)
    skill = Workspace(tmp_path).skills()[0]
    assert skill.frontmatter["metadata"] == {"category": "sqlite", "entry-1-task": "Count the rows of `t` in `/app/a.db`."}
    assert entry_tasks(skill.frontmatter, skill.body.splitlines()) == ["Count the rows of `t` in `/app/a.db`."]


def test_the_threshold_is_a_config_key_and_the_agent_records_the_entrys_closeness(tmp_path, local_sandbox):
    """skill_in_prompt_min_similarity (0.3, between 0 and 1) reaches the placement through the
    agent's memory options; the trajectory's metadata.inline_skill records the closest entry's
    similarity."""
    import json

    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.harness.agents import build_agent, memory_options
    from adaptive_skill.llm.scripted import ScriptedLLM
    from adaptive_skill.tasks.model import Task

    assert EvolveConfig().skill_in_prompt_min_similarity == ENTRY_MIN_SIMILARITY == 0.3
    with pytest.raises(ValueError):
        EvolveConfig(skill_in_prompt_min_similarity=1.5)
    shutil.copytree(REPO / "workspace", tmp_path / "ws", ignore=shutil.ignore_patterns("skills"))
    family_skill(tmp_path / "ws", "tar-create-relative-worked-commands", "archives",
                 [(instruction(FAMILIES, t), "tar -czf /app/out.tgz -C /srv reports")
                  for t in ("tar-create-relative-srv-reports", "tar-create-relative-alice-notes")])
    ws = Workspace(tmp_path / "ws")
    config = EvolveConfig(skill_in_prompt_tokens=300, skill_in_prompt_min_similarity=0.35, spiral={"enabled": False})
    assert memory_options(config, ws).skill_min_similarity == 0.35
    agent = build_agent("llm", config, workspace=ws, trajectories_dir=tmp_path / "trajs",
                        llm=ScriptedLLM([{"tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]}], None))
    task = Task(id="tar-twin", path=tmp_path, layout="harbor", category="archives",
                instruction=instruction(FAMILIES, "tar-create-relative-nginx-config"))
    saved = json.loads(Path(agent.solve(task, local_sandbox).trajectory_path).read_text())
    placed = saved["metadata"]["inline_skill"]
    assert placed["name"] == "tar-create-relative-worked-commands" and placed["entry_similarity"] >= 0.35


def test_where_no_skill_of_its_kind_is_close_a_task_gets_what_the_seed_library_gives_it(tmp_path):
    """A distilled skill changes the prompt only where it is placed: a task of its kind that none of
    its entries is close to gets the seed's placement (check-your-work, ranked among the undeclared
    skills alone), not nothing. Before, declaring the kind took check-your-work from every task of it,
    a change no per-skill test saw (issue 66)."""
    shutil.copytree(REPO / "workspace" / "skills" / "check-your-work", tmp_path / "skills" / "check-your-work")
    seed = Workspace(tmp_path).skills()
    creating = [instruction(EASY, "sqlite-import-csv")]
    family_skill(tmp_path, "sqlite-worked-commands", "sqlite",
                 [(text, "sqlite3 /app/new.db < /app/schema.sql") for text in creating])
    library = Workspace(tmp_path).skills()
    update = instruction(FAMILIES, "sqlite-update-rows-cable-price")
    assert entry_similarity(instruction_words(update), creating[0]) < ENTRY_MIN_SIMILARITY
    before, after = place(seed, update, "sqlite"), place(library, update, "sqlite")
    assert before is not None and before.name == "check-your-work"
    assert after is not None and (after.name, after.text()) == (before.name, before.text())
    near = place(library, creating[0], "sqlite")  # its own entry's task: the family skill
    assert near is not None and near.name == "sqlite-worked-commands"
