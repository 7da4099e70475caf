"""The skill placed in the prompt (skill_in_prompt_tokens, agent/inline.py): the best-matching skill's
body within its token budget, at the end of the system prompt (after what every task shares), off by
default, recorded in the trajectory and counted as read by attribution."""

from __future__ import annotations

import shutil
from pathlib import Path

from adaptive_skill.agent.inline import best_skill
from adaptive_skill.agent.loop import MemoryOptions, build_system_prompt
from adaptive_skill.agent.memory import estimate_tokens
from adaptive_skill.config import EmbedderConfig
from adaptive_skill.embed import make_embedder
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
EXPERT = REPO / "benchmarks" / "evolution" / "expert-workspace"


def workspace(tmp_path) -> Workspace:
    shutil.copytree(EXPERT, tmp_path / "ws")
    return Workspace(tmp_path / "ws")


def test_the_best_matching_skill_is_placed_last_within_its_budget(tmp_path):
    ws = workspace(tmp_path)
    embedder = make_embedder(EmbedderConfig())
    task = "Create an annotated git tag v1.2.0 with the message 'release 1.2.0' in /app/repo."
    plain = build_system_prompt(ws, True, instruction=task)
    placed = build_system_prompt(ws, True, instruction=task,
                                 memory=MemoryOptions(embedder=embedder, skill_tokens=800))
    assert plain.inline is None and placed.inline is not None and placed.inline.name == "git-basics"
    assert placed.text.startswith(plain.text.rstrip())  # the shared prefix stays first
    body = next(s.body for s in ws.skills() if s.name == "git-basics").strip()
    assert placed.text.rstrip().endswith(body)
    assert placed.inline.tokens == estimate_tokens(placed.inline.text()) <= 800
    # a budget too small for any body places nothing
    tight = build_system_prompt(ws, True, instruction=task, memory=MemoryOptions(embedder=embedder, skill_tokens=20))
    assert tight.inline is None and tight.text == plain.text


def test_nothing_is_placed_without_an_embedder_or_a_relevant_skill(tmp_path):
    ws = workspace(tmp_path)
    skills = ws.skills()
    embedder = make_embedder(EmbedderConfig())
    assert best_skill(skills, "git tag", budget_tokens=800, embedder=None, count_tokens=estimate_tokens) is None
    assert best_skill(skills, "zzzz qqqq", budget_tokens=800, embedder=embedder, count_tokens=estimate_tokens) is None
    assert best_skill([], "git tag", budget_tokens=800, embedder=embedder, count_tokens=estimate_tokens) is None


def test_an_embedder_that_fails_places_nothing_and_the_prompt_still_renders(tmp_path):
    """As for memory ranking, an embedder failure (an API embedder unreachable) must not crash an
    attempt: no skill is placed, the rest of the prompt is as without the option."""
    ws = workspace(tmp_path)

    class Broken:
        name = "broken"

        def embed(self, texts):
            raise ConnectionError("embedder unreachable")

    task = "Create an annotated git tag v1.2.0 in /app/repo."
    placed = build_system_prompt(ws, True, instruction=task, memory=MemoryOptions(embedder=Broken(), skill_tokens=800))
    assert placed.inline is None and placed.text.startswith(build_system_prompt(ws, True, instruction=task).text[:200])
    assert best_skill(ws.skills(), task, budget_tokens=800, embedder=Broken(), count_tokens=estimate_tokens) is None


def test_with_the_lexical_embedder_words_decide_and_the_kinds_skill_is_placed(tmp_path):
    """The lexical embedder's cosine placed nothing for a JSON task and the output-file skill for a zip
    task (its character n-grams of the whole instruction drowned "json" and "zip"); the word TF-IDF
    ranking places the skill written for each kind, and over terminal-easy (the expert re-tuned on
    2026-11-27, a skill per kind) the kind's skill for 72 of 80 tasks against 51 with the cosine
    (benchmarks/probes/inline_probe.py)."""
    import subprocess
    import sys

    from adaptive_skill.agent.inline import MIN_RELEVANCE, embedder_relevance
    from adaptive_skill.observe.tokens import TokenCounter

    ws = workspace(tmp_path)
    skills = ws.skills()
    embedder = make_embedder(EmbedderConfig())
    tasks = {"json-count-status": "json-csv-python", "unzip-without-unzip": "json-csv-python",
             "git-ignore-logs": "git-basics", "sqlite-insert-row": "shell-scripts"}
    for task, want in tasks.items():
        instruction = (REPO / "benchmarks" / "terminal-easy" / task / "instruction.md").read_text()
        placed = best_skill(skills, instruction, budget_tokens=300, embedder=embedder, count_tokens=TokenCounter().count)
        assert placed is not None and placed.name == want, task
    json_task = (REPO / "benchmarks" / "terminal-easy" / "json-count-status" / "instruction.md").read_text()
    assert max(embedder_relevance(skills, json_task, embedder)) < MIN_RELEVANCE  # what the cosine did
    probe = subprocess.run([sys.executable, str(REPO / "benchmarks" / "probes" / "inline_probe.py")],
                           capture_output=True, text=True, cwd=REPO, timeout=300)
    assert probe.returncode == 0 and "right skill placed for 72 of 80 tasks" in probe.stdout


def test_a_best_skill_too_long_for_the_budget_is_cut_not_replaced_by_another_kind(tmp_path):
    """Run 17: the distilled git skill did not fit 300 tokens and the short archives skill was placed
    for the git tasks instead (37 of 40 holdout tasks got it). Now the git skill's first lines go."""
    from adaptive_skill.evolve.distill import Entry, write_skill

    skills = tmp_path / "skills"
    git = [Entry(f"In the git repository `/app/repo{i}`, create the branch `topic-{i}` from `main` and switch "
                 "to it, keeping the files as they are.", [f"cd /app/repo{i}; git checkout -b topic-{i}",
                                                           f"cd /app/repo{i}; git branch --show-current > /app/b{i}"])
           for i in range(6)]
    write_skill(skills / "git-worked-commands", "git-worked-commands", "git", git)
    write_skill(skills / "archives-worked-commands", "archives-worked-commands", "archives",
                [Entry("Extract the archive `/app/pkg.tar.gz` into `/app`.", ["tar -xzf /app/pkg.tar.gz -C /app"])])
    ws = Workspace(tmp_path)
    embedder = make_embedder(EmbedderConfig())
    task = "Create a branch named feature in the git repository /app/repo and switch to it."
    whole = next(s for s in ws.skills() if s.name == "git-worked-commands")
    assert estimate_tokens(whole.body) > 300
    placed = best_skill(ws.skills(), task, budget_tokens=300, embedder=embedder, count_tokens=estimate_tokens)
    assert placed is not None and placed.name == "git-worked-commands" and placed.tokens <= 300
    assert placed.body.endswith("(cut to fit; read_skill git-worked-commands for the rest)")
    assert "`cd /app/repo0; git checkout -b topic-0`" in placed.body and "topic-5" not in placed.body
    # a budget that holds fewer than two of its lines places nothing, not the other kind's skill
    assert best_skill(ws.skills(), task, budget_tokens=40, embedder=embedder, count_tokens=estimate_tokens) is None


def _declared_library(root: Path) -> Workspace:
    """A distilled library as evolver.mode distill writes it: a git and a files skill, and the shared
    skill holding the json-csv and sqlite entries, each kind under its own section."""
    from adaptive_skill.evolve.distill import MIXED, Passed, plan_skills, write_skill

    found = [Passed.of("g1", "git", "Tag the last commit of /app/repo as v1.", ["cd /app/repo; git tag -a v1 -m v1"], False),
             Passed.of("f1", "files-permissions", "Make /app/run.sh executable.", ["chmod +x /app/run.sh"], False),
             Passed.of("j1", "json-csv", "Count the rows of /app/data.csv.", ["python3 -c 'print(1)' > /app/n"], False),
             Passed.of("s1", "sqlite", "Drop the table logs of /app/app.db.",
                       ["sqlite3 /app/app.db 'DROP TABLE logs'"], False)]
    shutil.copytree(REPO / "workspace", root, ignore=shutil.ignore_patterns("skills"))  # the seed's prompts
    (root / "skills").mkdir(parents=True)
    plan = plan_skills(root, found, max_skills=3, body_chars=1400)
    assert sorted(plan.skills) == ["files-permissions-worked-commands", "git-worked-commands", MIXED]
    for name, entries in plan.skills.items():
        write_skill(root / "skills" / name, name, plan.categories[name], entries)
    return Workspace(root)


def test_a_skill_declaring_the_tasks_category_is_placed_and_a_shared_one_keeps_only_that_section(tmp_path):
    """Run 20: the shared skill was placed for a files task (`newest-file-name`, whose words matched
    it), and a scripting task read its other kinds' entries. A skill declaring the task's category
    (metadata.category) wins over words; a shared one keeps only the task's section; a kind no skill
    declares gets nothing from a library that declares kinds; no category leaves words to decide."""
    from adaptive_skill.skills import skill_categories

    ws = _declared_library(tmp_path / "ws")
    skills = ws.skills()
    assert {s.name: sorted(skill_categories(s)) for s in skills} == {
        "files-permissions-worked-commands": ["files-permissions"], "git-worked-commands": ["git"],
        "mixed-worked-commands": ["json-csv", "sqlite"]}
    embedder = make_embedder(EmbedderConfig())

    def place(instruction, category):
        return best_skill(skills, instruction, budget_tokens=300, embedder=embedder, count_tokens=estimate_tokens,
                          category=category)

    # words pull toward git (repo, commit, tag); the declared category decides
    words = "Write the tag of the last commit of /app/repo into the table tags of /app/app.db."
    assert place(words, "").name == "git-worked-commands"
    sqlite = place(words, "sqlite")
    assert sqlite.name == "mixed-worked-commands" and sqlite.category == "sqlite"
    assert "DROP TABLE logs" in sqlite.body and "data.csv" not in sqlite.body and "### json-csv" not in sqlite.body
    assert "### sqlite" in sqlite.body and "## Verification" in sqlite.body
    # a task of a declared kind whose words share nothing with its skill still gets it
    files = place("Write the name of the newest log under /var/log to /tmp/x.", "Files & Permissions")
    assert files.name == "files-permissions-worked-commands" and files.category == "files-permissions"
    assert files.to_dict()["category"] == "files-permissions"
    # no skill declares text-processing: the library places nothing rather than another kind's
    assert place("Count the lines of /app/repo's commit log in /app/app.db.", "text-processing") is None
    # an undeclared library (the expert's) ranks by words with or without a category
    expert = workspace(tmp_path / "expert").skills()
    task = "Create an annotated git tag v1.2.0 in /app/repo."
    by_words = best_skill(expert, task, budget_tokens=300, embedder=embedder, count_tokens=estimate_tokens)
    with_kind = best_skill(expert, task, budget_tokens=300, embedder=embedder, count_tokens=estimate_tokens,
                           category="sqlite")
    assert by_words == with_kind and by_words.name == "git-basics" and by_words.category == ""


def test_a_declared_category_is_read_as_untrusted_frontmatter(tmp_path):
    """metadata is the evolver's text: a value of another type declares nothing, a long or odd one is
    cut and normalized, and no value makes placement fail."""
    from adaptive_skill.skills import Skill, skill_categories

    def skill(frontmatter):
        return Skill("x", "Use when x.", "## Steps\n1. a\n2. b\n", tmp_path, frontmatter)

    assert skill_categories(skill({})) == frozenset()
    for odd in ({"metadata": "git"}, {"metadata": {"category": ["git"]}}, {"metadata": {"category": 5}},
                {"metadata": None}, {"metadata": {"category": " , ,"}}):
        assert skill_categories(skill(odd)) == frozenset(), odd
    assert skill_categories(skill({"metadata": {"category": "Git, ../../etc/passwd ,JSON/CSV"}})) == {
        "git", "etc-passwd", "json-csv"}
    assert len(skill_categories(skill({"metadata": {"category": "a," * 10**6}}))) == 1  # read up to 1000 chars
    embedder = make_embedder(EmbedderConfig())

    def named(name, frontmatter):
        return Skill(name, "Use when x.", f"## Steps\n1. {name}\n2. b\n", tmp_path, frontmatter)

    listed, declared = named("a-listed", {"metadata": {"category": ["git"]}}), named("b-declared", {"metadata": {"category": "git"}})
    placed = best_skill([listed, declared], "anything at all", budget_tokens=300, embedder=embedder,
                        count_tokens=estimate_tokens, category="git")
    assert placed is not None and placed.name == "b-declared" and placed.category == "git"


def test_sections_headings_and_a_library_of_both_kinds(tmp_path):
    """own_sections drops only the other declared kinds' `### ` sections, each up to the next heading
    of level 1-3 (a `####` inside stays with its section; a `### Notes` is no kind and stays); a task
    with no category gets the whole body by words; a task whose kind no skill declares gets the
    undeclared (hand-written) skill, never a declaring one; a hostile heading costs no time."""
    from adaptive_skill.agent.inline import own_sections
    from adaptive_skill.skills import Skill

    lines = ["## Steps", "intro", "### git", "1. g", "#### more git", "2. gg", "### Notes", "n", "### sqlite", "3. s",
             "## Verification", "v"]
    assert own_sections(lines, "sqlite", frozenset({"git", "sqlite"})) == [
        "## Steps", "intro", "### Notes", "n", "### sqlite", "3. s", "## Verification", "v"]
    hostile = ["### a" + " \t" * 20000 + "b", "1. x"]
    assert own_sections(hostile, "git", frozenset({"git"})) == hostile  # no kind named: kept, and at once

    ws = _declared_library(tmp_path / "ws")
    embedder = make_embedder(EmbedderConfig())
    seed = Skill("check-your-work", "Use when you count the lines of a log file.",
                 "## Steps\n1. wc -l the file.\n2. cat what you wrote.\n", tmp_path, {})
    skills = [*ws.skills(), seed]
    task = "Count the rows of /app/data.csv and drop the table logs of /app/app.db."

    def place(instruction, category):
        return best_skill(skills, instruction, budget_tokens=300, embedder=embedder, count_tokens=estimate_tokens,
                          category=category)

    whole = place(task, "")
    assert whole.name == "mixed-worked-commands" and whole.category == ""
    assert "### json-csv" in whole.body and "### sqlite" in whole.body
    assert place("Count the lines of /app/log.txt.", "text-processing").name == "check-your-work"
    assert place("Count the lines of /app/log.txt.", "sqlite").name == "mixed-worked-commands"


def test_the_agent_places_by_its_tasks_category(tmp_path, local_sandbox):
    """LLMAgent.solve hands the task's category to the placement (MemoryOptions.category); the
    trajectory's metadata.inline_skill records the skill and the category it was placed for."""
    import json

    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.llm.scripted import ScriptedLLM
    from adaptive_skill.tasks.model import Task

    ws = _declared_library(tmp_path / "ws")
    config = EvolveConfig(skill_in_prompt_tokens=300, spiral={"enabled": False})
    agent = build_agent("llm", config, workspace=ws, trajectories_dir=tmp_path / "trajs",
                        llm=ScriptedLLM([{"tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]}], None))
    task = Task(id="drop-logs", path=tmp_path, layout="harbor", category="sqlite",
                instruction="Write the tag of the last commit of /app/repo into the table tags of /app/app.db.")
    outcome = agent.solve(task, local_sandbox)
    saved = json.loads(Path(outcome.trajectory_path).read_text())
    assert saved["metadata"]["inline_skill"]["name"] == "mixed-worked-commands"
    assert saved["metadata"]["inline_skill"]["category"] == "sqlite"
    placed = saved["messages"][0]["content"].split("The skill that best matches this task")[1]
    assert "DROP TABLE logs" in placed and "data.csv" not in placed
