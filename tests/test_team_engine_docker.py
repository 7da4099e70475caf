"""One engine cycle in Docker with evolver.mode: team and scripted models: the team's skill goes
through the same rules, gate and commit as the single evolver's, and the run's events show the
whole discussion with its cost."""

import json
from pathlib import Path

import pytest
from taskfactory import scripted_engine_config

from adaptive_skill.config import load_config
from adaptive_skill.engine import AdaptiveSkillEngine
from adaptive_skill.versioning import WorkspaceRepo

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker

SKILL = ("---\nname: careful-checks\ndescription: Use when a task asks for an answer file, before submitting.\n"
         "---\n## Steps\n1. Write the answer.\n2. cat it back and compare with the instruction.\n"
         "## Verification\n- cat the file\n")


def bash(command):
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def said(when, content):
    return {"when": when, "content": content, "cost": 0.002, "usage": {"prompt_tokens": 50, "completion_tokens": 5}}


def idea(target, confidence):
    return {"action": "create", "target": target, "description": f"Use when {target.replace('-', ' ')} matter",
            "steps": [f"apply {target}"], "verification": [f"check {target}"], "confidence": confidence}


AGENT = [
    {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
    {"when": "careful-checks", **bash("echo 42 > /app/answer.txt && echo GOOD")},
    bash("echo PLAIN"),
]
JUDGE = [
    {"when": "GOOD", "content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer.",
                                 "failure_reason": None}},
    {"content": {"score": 5, "category": "file-operations", "outcome": "Printed something and stopped.",
                 "failure_reason": "never wrote the answer file"}},
]
TEAM = [
    said("# Topic discussion, turn", {"message": "Every task ended without writing /app/answer.txt."}),
    said("# Topic summary", {"pattern": "no answer file written", "evidence": [], "focus": "write and read back"}),
    said("# Idea generation, turn 2", idea("answer-readback", 0.5)),
    said("# Idea generation", idea("careful-checks", 0.9)),
    said("# Novelty review", {"choice": 1, "reason": "addresses the pattern"}),
    said("Skill writing: first draft", {"content": SKILL}),
    said("Skill writing: review", {"assessment": "complete", "content": SKILL}),
    said("# Self-review", {"novel": True, "duplicates": [], "feedback": "check-your-work is generic; this is not"}),
]


@pytest.fixture
def config_path(tmp_path, docker_client, base_image):
    return scripted_engine_config(tmp_path, {"agent": AGENT, "judge": JUDGE, "evolver": TEAM}, max_cycles=1,
                                  evolver={"mode": "team", "team": {"turns": 3}})


def test_team_cycle(config_path):
    engine = AdaptiveSkillEngine.start(load_config(config_path), run_id="team")
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    repo = WorkspaceRepo.open(run / "workspace")
    tags = repo.tags()
    assert [t.name for t in tags] == ["evo-0", "evo-1"] and tags[1].metrics["created"] == ["careful-checks"]
    assert repo.read_file("evo-1", "skills/careful-checks/SKILL.md") == SKILL

    evolved = json.loads((run / "cycles" / "001" / "evolve.json").read_text())
    assert evolved["mutated"] and evolved["status"] == "agreed" and evolved["candidate"]
    team = evolved["team"]
    assert team["discussion"]["stopped_early"] and team["discussion"]["turns"] == 2
    assert [c["target"] for c in team["rounds"][0]["candidates"]] == ["careful-checks", "answer-readback"]
    assert team["rounds"][0]["ideas"]["turns"] == 3  # turn 2 brought a new idea, turn 3 nothing new
    assert (run / "cycles" / "001" / "evolve" / "team.json").is_file()
    matrix = json.loads((run / "team" / "collaboration.json").read_text())
    assert matrix["sessions"] == ["evolve-1"] and matrix["counts"][team["leader"]] == \
        dict.fromkeys(sorted(team["collaborators"]), 1)

    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    messages = [e for e in events if e["event"] == "team_message"]
    assert {m["stage"] for m in messages} == {"discussion", "summary", "ideas", "review", "draft", "writing",
                                              "self_review"}
    guest = team["guest"]
    assert [m["turn"] for m in messages if m["speaker"] == guest] == [2]  # invited once, to turn 2
    assert all(m["cost"] == 0.002 for m in messages)
    assert len([e for e in events if e["event"] == "team_vote"]) == 4
    end = next(e for e in events if e["event"] == "team_end")
    assert end["calls"] == len(messages) and end["cost"] == pytest.approx(0.002 * len(messages))
    evolve_end = next(e for e in events if e["event"] == "phase_end" and e["phase"] == "evolve")
    assert evolve_end["cost"]["cost"] >= end["cost"]  # the run's accounting saw the team's calls
    kinds = [e["event"] for e in events]
    assert kinds.index("team_formed") > kinds.index("phase_start") and "mutation_accepted" in kinds
