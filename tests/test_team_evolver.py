"""The team evolver with scripted members (rule mode): adaptive turns, top-3 ideas, the blind
review and its vote, novelty figures against the library and its git history, self-review
(revise, then discard), the invitation, and the same rules step as the single evolver."""

import json
import re
import shutil
from pathlib import Path

import pytest

from adaptive_skill.config import EvolveConfig
from adaptive_skill.embed.lexical import LexicalEmbedder
from adaptive_skill.evolve.library import load_history
from adaptive_skill.evolve.team import TeamEvolver
from adaptive_skill.evolve.team.novelty import NoveltyIndex, skill_essence
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.runs import RunDir
from adaptive_skill.versioning import WorkspaceRepo

REPO = Path(__file__).resolve().parents[1]
NAMES = ("alpha", "bravo", "charlie", "delta")
SAID = "The agent never reads back the answer file before it submits."
PATTERN = "answers submitted unread"
FOCUS = "read the output back and compare it with the instruction"


def skill_md(name, body="1. cat the output file.\n2. Compare every value with the instruction."):
    return (f"---\nname: {name}\ndescription: Use when a task asks for an output file in an exact format.\n---\n"
            f"## Steps\n{body}\n## Verification\n- the content matches the instruction\n")


def rule(when, content):
    return {"when": when, "content": content, "cost": 0.001, "usage": {"prompt_tokens": 100, "completion_tokens": 10}}


def idea(target, confidence, action="create", words=""):
    return {"action": action, "target": target, "description": f"Use when {target.replace('-', ' ')} {words}",
            "steps": [f"apply {target} {words}"], "verification": [f"check {target}"], "confidence": confidence}


IDEAS = {"alpha": idea("verify-output-format", 0.9), "bravo": idea("csv-headers", 0.4, words="for tables"),
         "charlie": idea("check-your-work", 0.7, "edit", "more checks"),
         "delta": idea("answer-file-checks", 0.6, words="for answer files")}


def script(*overrides, ideas=None, draft=None, votes=None):
    """Rules are tried in order: `overrides` first, then the happy path."""
    rules = list(overrides)
    rules += [rule("# Topic discussion, turn", {"message": SAID}),
              rule("# Topic summary", {"pattern": PATTERN, "evidence": ["task-a"], "focus": FOCUS})]
    rules += [rule(rf"You are {name},(?s:.*)# Idea generation", i) for name, i in (ideas or IDEAS).items()]
    rules += [rule(rf"You are {name},(?s:.*)# Novelty review", {"choice": choice, "reason": f"{name} likes it"})
              for name, choice in (votes or {}).items()]
    rules += [rule("# Novelty review", {"choice": 1, "reason": "new and useful"}),
              rule("Skill writing: first draft", {"content": draft or skill_md("verify-output-format")}),
              rule("Skill writing: review, turn", {"assessment": "complete", "content": draft
                                                  or skill_md("verify-output-format")}),
              rule("# Self-review", {"novel": True, "duplicates": [], "feedback": "distinct from the library"})]
    return rules


@pytest.fixture
def env(tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "workspace", workspace)
    observations = tmp_path / "observations"
    observations.mkdir()
    (observations / "index.md").write_text("# Observations\n\n| task | score |\n| task-a | 2 |\n| task-b | 3 |\n")
    for task, score in (("task-a", 2), ("task-b", 3), ("task-c", 9)):
        (observations / task).mkdir()
        (observations / task / "instruction.md").write_text("Write 42 to /app/answer.txt.")
        (observations / task / "trajectory.txt").write_text("$ echo 41 > /app/answer.txt\n$ submit\n")
        (observations / task / "verdict.json").write_text(json.dumps(
            {"score": score, "category": "file-operations", "outcome": "wrote an answer",
             "failure_reason": "never read it back" if score < 7 else None}))
    run = RunDir(tmp_path / "run")
    run.root.mkdir()
    return {"workspace": workspace, "observations": observations, "run": run, "out": tmp_path / "evolve"}


def team_config(names=NAMES, **settings):
    members = [{"name": n, "expertise": f"{n} expertise", "background": f"{n} background",
                "areas": ["file-operations"] if n == "alpha" else ["git"]} for n in names]
    return {"members": members, "size": 4, **settings}


def evolve(env, rules, *, max_skills=3, task_id="evolve-1", **settings):
    extra = {k: settings.pop(k) for k in ("protect_skills", "evolve_skills", "limits") if k in settings}
    config = EvolveConfig(max_skills=max_skills, evolver={"mode": "team", "team": team_config(**settings)}, **extra)
    accounting = Accounting(config.limits)
    llm = ScriptedLLM(rules, accounting, role="evolver")
    evolver = TeamEvolver(llm, config, run=env["run"], accounting=accounting, embedder=LexicalEmbedder())
    outcome = evolver.evolve(env["workspace"], env["observations"], env["out"], history=[], task_id=task_id)
    return outcome, llm


def events(env, kind=None):
    found = [e for e in env["run"].events() if e["event"].startswith("team_")]
    return [e for e in found if e["event"] == f"team_{kind}"] if kind else found


def requests(llm, heading):
    return [r for r in llm.requests if heading in r.messages[-1]["content"]]


def test_a_session_creates_the_winning_skill(env):
    outcome, llm = evolve(env, script())
    assert outcome.status == "agreed" and outcome.mutated
    assert outcome.changes.created_skills == ["verify-output-format"] and not outcome.violations
    written = (env["workspace"] / "skills" / "verify-output-format" / "SKILL.md").read_text()
    assert written == skill_md("verify-output-format")
    assert outcome.summary.startswith("team of alpha with ") and "create skill verify-output-format" in outcome.summary
    # the leader fits the failures (file-operations); every member of the roster is on the team of 4
    formed = events(env, "formed")[0]
    assert formed["leader"] == "alpha" and formed["failed_categories"] == {"file-operations": 2}
    # the whole discussion is in the events, each message with what it cost
    messages = events(env, "message")
    assert len(messages) == len(llm.requests) == outcome.team["spent"]["calls"]
    assert all(m["cost"] == 0.001 and m["tokens"] == 110 for m in messages)
    assert outcome.team["spent"] == {"calls": len(llm.requests), "tokens": 110 * len(llm.requests),
                                     "cost": round(0.001 * len(llm.requests), 6)}
    stages = [m["stage"] for m in messages]
    assert stages[:9] == ["discussion"] * 8 + ["summary"]
    assert [e["event"] for e in events(env)][-3:] == ["team_self_review", "team_rules", "team_end"]
    # the transcript holds the same entries, and the outcome is what the engine stores
    transcript = json.loads((env["out"] / "team.json").read_text())
    assert len(transcript["entries"]) == len(events(env)) and transcript["status"] == "agreed"
    assert outcome.to_dict()["team"]["leader"] == "alpha" and outcome.trajectories == [str(env["out"] / "team.json")]


def test_discussion_stops_when_a_turn_adds_nothing_new(env):
    outcome, _ = evolve(env, script(), turns=5)
    turns = events(env, "turn")
    discussion = [t for t in turns if t["stage"] == "discussion"]
    assert [t["novelty"] for t in discussion] == [1.0, 0.0] and discussion[-1]["stop"]
    assert outcome.team["discussion"] == {"turns": 2, "stopped_early": True, "novelty": [1.0, 0.0],
                                          "pattern": PATTERN}
    # the same rule ends idea generation and writing: repeated ideas, an unchanged draft
    assert [t["turn"] for t in turns if t["stage"] == "ideas"] == [1, 2]
    assert [t["turn"] for t in turns if t["stage"] == "writing"] == [1]


def test_discussion_runs_to_the_ceiling_while_every_turn_is_new(env):
    fresh = [rule("Topic discussion, turn 1 ", {"message": "Three tasks wrote a wrong value into answer.txt."}),
             rule("Topic discussion, turn 2 ", {"message": "Permissions: chmod was never checked with stat -c."}),
             rule("Topic discussion, turn 3 ", {"message": "Git merges left conflict markers in config files."})]
    outcome, _ = evolve(env, script(*fresh), turns=3)
    discussion = [t for t in events(env, "turn") if t["stage"] == "discussion"]
    assert [t["turn"] for t in discussion] == [1, 2, 3] and not any(t["stop"] for t in discussion)
    assert all(t["novelty"] > t["threshold"] for t in discussion)
    assert outcome.team["discussion"]["stopped_early"] is False


def test_top_three_ideas_by_confidence_one_per_target(env):
    evolve(env, script())
    kept = events(env, "ideas")[0]["kept"]
    assert [(k["target"], k["confidence"], k["author"]) for k in kept] == [
        ("verify-output-format", 0.9, "alpha"), ("check-your-work", 0.7, "charlie"),
        ("answer-file-checks", 0.6, "delta")]
    assert events(env, "ideas")[0]["proposed"] == 8  # 4 members x 2 turns; repeats keep one per target


def test_ideas_that_cannot_be_applied_are_dropped(env):
    ideas = {**IDEAS, "bravo": idea("no-such-skill", 0.95, "edit"), "delta": idea("check-your-work", 0.99)}
    evolve(env, script(ideas=ideas))
    dropped = {e["reason"] for e in events(env, "idea_dropped")}
    assert dropped == {"edit no-such-skill: no such skill",
                       "create check-your-work: a skill of that name exists (an edit?)"}
    assert [k["target"] for k in events(env, "ideas")[0]["kept"]] == ["verify-output-format", "check-your-work"]


def test_blind_review_has_no_discussion_memory(env):
    _, llm = evolve(env, script())
    ballots = [r for r in llm.requests if r.schema == "Ballot"]
    assert len(ballots) == 4
    for request in ballots:
        text = "\n".join(m["content"] for m in request.messages)
        assert SAID not in text and PATTERN not in text and FOCUS not in text  # no discussion, no topic
        assert "confidence" not in text.lower()  # not how sure the authors were
        assert not any(re.search(rf"\b{value}\b", text) for value in ("0.9", "0.7", "0.6"))
        voter = re.search(r"You are (\w+),", text).group(1)
        for other in set(NAMES) - {voter}:
            assert not re.search(rf"\b{other}\b", text), other  # not who proposed what
        assert "Candidate 1: create `verify-output-format`" in text and "Novelty figures:" in text
    # the stages before it did see the discussion
    assert all(PATTERN in r.messages[-1]["content"] for r in llm.requests if r.schema == "Idea")


def test_votes_decide_the_winner(env):
    votes = {"alpha": 2, "bravo": 2, "charlie": 3, "delta": 7}  # delta's ballot names no candidate
    draft = skill_md("check-your-work", "1. Re-read the instruction.\n2. Diff the output against an example.")
    outcome, _ = evolve(env, script(votes=votes, draft=draft))
    recorded = {v["voter"]: (v["choice"], v["valid"]) for v in events(env, "vote")}
    assert recorded == {"alpha": (2, True), "bravo": (2, True), "charlie": (3, True), "delta": (None, False)}
    winner = events(env, "winner")[0]
    assert winner["winner"] == 2 and winner["tally"] == {"2": 2, "3": 1}  # JSON keys
    assert outcome.changes.modified_skills == ["check-your-work"] and not outcome.changes.created_skills


def test_novelty_figures_against_history_and_rejected_skills(env):
    workspace = env["workspace"]
    repo = WorkspaceRepo.init(workspace, "seed")
    skill = workspace / "skills" / "check-your-work" / "SKILL.md"
    old_text = skill.read_text()
    skill.write_text(old_text.replace("## Verification", "5. Run the program once more.\n\n## Verification"))
    accepted = repo.snapshot("cycle 1: candidate")
    rejected_text = skill_md("answer-file-checks", "1. Open answer.txt with cat.\n2. Compare with the task.")
    (workspace / "skills" / "answer-file-checks").mkdir()
    (workspace / "skills" / "answer-file-checks" / "SKILL.md").write_text(rejected_text)
    rejected = repo.snapshot("cycle 2: candidate")
    repo.rollback(accepted, "cycle 2: roll back")
    env["run"].event("mutation_rejected", cycle=2, rejected_commit=rejected, reason="worse on holdout")

    history = load_history(workspace, rejected_commits=[rejected])
    assert [s.name for s in history.current] == ["check-your-work"]
    assert {s.name for s in history.past} == {"check-your-work", "answer-file-checks"}  # v1 and the rejected one
    assert [s.name for s in history.rejected] == ["answer-file-checks"]
    index = NoveltyIndex(LexicalEmbedder(), history, duplicate_similarity=0.6)
    again = index.assess(skill_essence(rejected_text))
    assert again.rejected_overlap == 1.0 and again.novelty == 0.0 and again.duplicate
    assert again.nearest_rejected == f"answer-file-checks (rejected {rejected[:10]})"
    old = index.assess(skill_essence(old_text))  # the version before cycle 1: past, not current
    assert old.historical_dissimilarity == 0.0 and old.library_dissimilarity > 0.0 and old.duplicate
    assert index.assess(skill_essence(old_text), exclude="check-your-work").historical_dissimilarity > 0.5
    new = index.assess("Use when a service must listen on a port: start it, then curl localhost.")
    assert new.novelty > 0.6 and not new.duplicate and new.rejected_overlap < 0.4

    # in a session, a candidate that repeats the rejected skill is struck before the vote
    ideas = {**IDEAS, "delta": {"action": "create", "target": "answer-file-checks",
                                "description": "Use when a task asks for an output file in an exact format.",
                                "steps": ["Open answer.txt with cat.", "Compare with the task."],
                                "verification": ["the content matches the instruction"], "confidence": 0.8}}
    _, llm = evolve(env, script(ideas=ideas))
    figures = {e["target"]: e["figures"] for e in events(env, "novelty")}
    assert figures["answer-file-checks"]["duplicate"] and figures["answer-file-checks"]["rejected_overlap"] > 0.6
    assert not figures["verify-output-format"]["duplicate"]
    winner = events(env, "winner")[0]
    assert winner["struck"] == [2] and winner["winner"] == 1
    ballot = next(r for r in llm.requests if r.schema == "Ballot").messages[-1]["content"]
    assert "create `answer-file-checks`" not in ballot and "Candidate 3" not in ballot  # renumbered 1, 2


def test_self_review_revises_once_then_passes(env):
    reworked = skill_md("verify-output-format", "1. cat the file.\n2. REWORKED: diff it against a sample.")
    rules = script(rule(r"# Self-review(?s:.*)REWORKED", {"novel": True, "duplicates": [], "feedback": "now distinct"}),
                   rule("# Self-review", {"novel": False, "duplicates": ["check-your-work"],
                                          "feedback": "repeats check-your-work"}),
                   rule("revision after self-review", {"content": reworked}))
    outcome, llm = evolve(env, rules)
    assert [e["passed"] for e in events(env, "self_review")] == [False, True]
    assert "repeats check-your-work" in requests(llm, "revision after self-review")[0].messages[-1]["content"]
    assert outcome.mutated and "REWORKED" in (env["workspace"] / "skills" / "verify-output-format" / "SKILL.md").read_text()


def test_second_self_review_failure_discards_and_returns_to_ideas(env):
    rules = script(rule("# Self-review", {"novel": False, "duplicates": [], "feedback": "nothing new here"}),
                   rule("revision after self-review", {"content": skill_md("verify-output-format")}))
    outcome, llm = evolve(env, rules, idea_rounds=2)
    assert [(e["round"], e["attempt"], e["passed"]) for e in events(env, "self_review")] == [
        (1, 1, False), (1, 2, False), (2, 1, False), (2, 2, False)]
    assert [e["round"] for e in events(env, "discarded")] == [1, 2]
    # round 2's idea prompts name what was discarded in round 1
    round_two = [r for r in llm.requests if r.schema == "Idea" and "Discarded after self-review" in r.messages[-1]["content"]]
    assert round_two and "verify-output-format" in round_two[0].messages[-1]["content"]
    assert outcome.status == "no_proposal" and not outcome.mutated and outcome.summary is None
    assert not (env["workspace"] / "skills" / "verify-output-format").exists()
    discarded = [json.loads(line) for line in (env["run"].root / "team" / "discarded.jsonl").read_text().splitlines()]
    assert [d["reason"] for d in discarded] == ["failed self-review twice"] * 2


def test_measured_duplicate_fails_self_review_even_if_the_leader_approves(env):
    copy = (REPO / "workspace" / "skills" / "check-your-work" / "SKILL.md").read_text().replace(
        "name: check-your-work", "name: verify-output-format")
    rules = script(rule("revision after self-review", {"content": copy}), draft=copy)
    outcome, _ = evolve(env, rules, idea_rounds=1)
    reviews = events(env, "self_review")
    assert [r["passed"] for r in reviews] == [False, False] and all(r["figures"]["duplicate"] for r in reviews)
    assert reviews[0]["similar"][0]["skill"] == "check-your-work" and reviews[0]["similar"][0]["similarity"] > 0.9
    assert outcome.status == "no_proposal" and not outcome.mutated


def test_invited_outsider_speaks_once_and_does_not_join(env):
    outcome, llm = evolve(env, script(rule("Topic discussion, turn 2 ", {"message": "Check file modes with stat."})),
                          names=(*NAMES, "echo"), turns=3)
    guest = outcome.team["guest"]
    assert guest is not None and guest not in [outcome.team["leader"], *outcome.team["collaborators"]]
    spoken = [m for m in events(env, "message") if m["speaker"] == guest]
    assert [(m["stage"], m["turn"], m["role"]) for m in spoken] == [("discussion", 2, "guest")]
    invited = [r for r in llm.requests if "an outside expert" in r.messages[0]["content"]]
    assert len(invited) == 1 and "The discussion so far" in invited[0].messages[-1]["content"]
    assert guest not in json.loads((env["run"].root / "team" / "collaboration.json").read_text())["counts"]


def test_matrix_persists_in_the_run_and_counts_each_session_once(env):
    evolve(env, script(), task_id="evolve-1")
    path = env["run"].root / "team" / "collaboration.json"
    first = json.loads(path.read_text())
    assert first["counts"]["alpha"] == {"bravo": 1, "charlie": 1, "delta": 1} and first["sessions"] == ["evolve-1"]
    shutil.rmtree(env["workspace"] / "skills" / "verify-output-format")
    evolve(env, script(), task_id="evolve-1")  # a redone phase
    assert json.loads(path.read_text())["counts"] == first["counts"]
    evolve(env, script(), task_id="evolve-2")
    assert json.loads(path.read_text())["counts"]["alpha"]["bravo"] == 2


def test_over_budget_proposal_gets_one_repair_turn(env):
    folded = skill_md("check-your-work", "1. Re-read the instruction.\n2. cat the output file and compare.")
    rules = script(rule("# Rules repair", {"action": "edit", "target": "check-your-work", "content": folded}))
    outcome, llm = evolve(env, rules, max_skills=1)
    assert [v.rule for v in outcome.violations] == ["budget"] and outcome.repaired and not outcome.reverted
    assert outcome.changes.modified_skills == ["check-your-work"] and not outcome.changes.created_skills
    assert "exceed the budget" in requests(llm, "# Rules repair")[0].messages[-1]["content"]
    assert (env["workspace"] / "skills" / "check-your-work" / "SKILL.md").read_text() == folded
    assert not (env["workspace"] / "skills" / "verify-output-format").exists()


def test_quality_failure_not_repaired_is_reverted(env):
    broken = "---\nname: verify-output-format\ndescription: Use when output matters.\n---\n## Steps\n1. cat it\n"
    rules = script(rule("# Rules repair", {"action": "create", "target": "verify-output-format", "content": broken}),
                   draft=broken)
    outcome, _ = evolve(env, rules)
    assert [v.rule for v in outcome.violations] == ["quality"] and not outcome.repaired
    assert [v.rule for v in outcome.reverted] == ["quality"] and not outcome.mutated
    assert not (env["workspace"] / "skills" / "verify-output-format").exists()
    assert events(env, "rules")[0]["reverted"][0]["paths"] == ["skills/verify-output-format"]
    discarded = (env["run"].root / "team" / "discarded.jsonl").read_text()
    assert "reverted by the rules" in discarded


def test_protected_skill_edit_is_reverted_without_a_repair(env):
    votes = dict.fromkeys(NAMES, 2)  # the edit of check-your-work wins
    draft = skill_md("check-your-work", "1. Changed.")
    outcome, llm = evolve(env, script(votes=votes, draft=draft), protect_skills=True)
    assert [v.rule for v in outcome.reverted] == ["protected"] and not outcome.mutated
    assert not requests(llm, "# Rules repair")
    assert "Existing skills are read-only" in [r for r in llm.requests if r.schema == "Idea"][0].messages[-1]["content"]
    assert (env["workspace"] / "skills" / "check-your-work" / "SKILL.md").read_text() == \
        (REPO / "workspace" / "skills" / "check-your-work" / "SKILL.md").read_text()


def test_no_team_when_skills_may_not_change(env):
    outcome, llm = evolve(env, script(), evolve_skills=False)
    assert outcome.status == "skipped" and not outcome.mutated and not llm.requests


def test_a_failed_leader_step_ends_the_session_without_change(env):
    rules = script({"when": "# Topic summary", "error": "bad_request"})
    outcome, _ = evolve(env, rules)
    assert outcome.status == "error" and not outcome.mutated and "summary" in outcome.team["ended"]
    assert (env["run"].root / "team" / "collaboration.json").is_file()  # they did work together
    assert events(env, "end")[0]["status"] == "error"


def test_a_spent_budget_ends_the_session(env):
    outcome, llm = evolve(env, script(), limits={"max_cost_per_task": 0.0055})  # 0.001 a reply: 6 calls
    assert outcome.status == "budget" and not outcome.mutated and len(llm.requests) == 6  # the 7th never went out
    last = events(env, "message")[-1]
    assert last["stage"] == "discussion" and "cost budget spent" in last["error"]
    assert outcome.team["spent"]["calls"] == 6


def test_a_team_skill_that_installs_without_a_network_is_sent_back_by_the_rules(env):
    """The no-network rule lives in the rules step every mode shares, not only in the structured
    evolver: the team's draft says `apt-get install jq`, the containers have none (the default), the
    leader is asked to repair it, and only the repaired skill is written."""
    installing = skill_md("verify-output-format", "1. apt-get install -y jq\n2. jq . ANSWER_FILE")
    fixed = skill_md("verify-output-format", "1. python3 -m json.tool ANSWER_FILE\n2. Compare it with the task.")
    rules = script(rule("# Rules repair", {"action": "create", "target": "verify-output-format", "content": fixed}),
                   draft=installing)
    outcome, llm = evolve(env, rules)
    assert [v.rule for v in outcome.violations] == ["quality"] and outcome.repaired and not outcome.reverted
    assert "installs or downloads" in requests(llm, "# Rules repair")[0].messages[-1]["content"]
    assert (env["workspace"] / "skills" / "verify-output-format" / "SKILL.md").read_text() == fixed
