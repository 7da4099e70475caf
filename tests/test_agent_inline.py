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
    (benchmarks/evolution/inline_probe.py)."""
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
    probe = subprocess.run([sys.executable, str(REPO / "benchmarks" / "evolution" / "inline_probe.py")],
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
