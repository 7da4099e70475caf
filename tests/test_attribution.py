"""Skill attribution (observe/attribution.py): which attempts read a skill and how they went against
attempts of the same tasks that did not; what the evolver is told (train side only), and the run's
files it is read from (cycles/<n>/solve/trajectories, observe.json)."""

from __future__ import annotations

import json

from adaptive_skill.observe.attribution import (
    Use,
    attribute,
    evolver_lines,
    observed_scores,
    skills_of,
    solve_uses,
)


def trajectory(task: str, offered: list[str], reads: list[str], *, failed_read: str | None = None) -> dict:
    """An agent trajectory as the loop saves it: read_skill steps, one of them an error if asked."""
    steps, messages = [], [{"role": "system", "content": "s"}, {"role": "user", "content": "do it"}]
    for index, name in enumerate([*reads, *([failed_read] if failed_read else [])], start=1):
        error = f"no skill {name}" if name == failed_read else None
        messages += [{"role": "assistant", "content": f"```read_skill\n{name}\n```"},
                     {"role": "user", "content": "Observation (read_skill):\n" + (f"error: {error}" if error else "body")}]
        steps.append({"index": index, "tool": "read_skill", "argument": name, "output": "" if error else "body",
                      "error": error, "message_index": len(messages) - 2})
    messages.append({"role": "assistant", "content": "```submit\ndone\n```"})
    steps.append({"index": len(steps) + 1, "tool": "submit", "argument": "done", "message_index": len(messages) - 1})
    return {"task_id": task, "messages": messages, "steps": steps, "status": "submitted",
            "metadata": {"protocol": "text", "skills": offered}}


def test_reads_are_the_read_skill_steps_that_returned_the_skill():
    offered, read = skills_of(trajectory("t", ["a", "b"], ["a"], failed_read="nope"))
    assert offered == {"a", "b"} and read == {"a"}
    assert skills_of({"not": "a trajectory"}) == (frozenset(), frozenset())


def test_outcomes_when_read_against_the_same_tasks_not_reading_it():
    uses = [Use("t1", "evo-0", frozenset({"a", "b"}), frozenset({"a"}), 0.9),
            Use("t1", "evo-0", frozenset({"a", "b"}), frozenset(), 0.3),
            Use("t2", "evo-0", frozenset({"a", "b"}), frozenset({"a"}), 0.7),
            Use("t3", "evo-0", frozenset({"a", "b"}), frozenset(), 0.0),  # t3 never read a: not a comparison
            Use("t1", "evo-1", frozenset({"a"}), frozenset(), None)]
    rows = {(r.skill, r.version): r for r in attribute(uses)}
    a0 = rows[("a", "evo-0")]
    assert (a0.offered, a0.read, a0.read_outcome, a0.unread_same_tasks, a0.unread_outcome) == (4, 2, 0.8, 1, 0.3)
    b0 = rows[("b", "evo-0")]
    assert (b0.offered, b0.read, b0.read_outcome, b0.unread_same_tasks) == (4, 0, None, 0)
    a1 = rows[("a", "evo-1")]
    assert (a1.offered, a1.read, a1.read_outcome) == (1, 0, None)
    lines = evolver_lines(attribute(uses), ["a", "b", "c"])
    assert lines[0] == ("- a: read in 2 of 5 attempts; judge score 8.0 when read, 3.0 when the same tasks did "
                        "not read it (1 attempts)")
    assert lines[1] == "- b: read in 0 of 4 attempts" and lines[2] == "- c: not offered to any attempt yet"


def test_a_cycles_files_give_its_uses(tmp_path):
    """A run's train attempts: trajectories under cycles/<n>/solve/trajectories, scores in observe.json."""
    solve = tmp_path / "cycles" / "001" / "solve" / "trajectories"
    solve.mkdir(parents=True)
    (solve / "t1.json").write_text(json.dumps(trajectory("t1", ["a"], ["a"])))
    (solve / "t2.json").write_text(json.dumps(trajectory("t2", ["a"], [])))
    (solve / "torn.json").write_text("{not json")
    observe = tmp_path / "cycles" / "001" / "observe.json"
    observe.write_text(json.dumps({"items": [{"task": "t1", "verdict": {"score": 9}},
                                             {"task": "t2", "verdict": None}]}))
    scores = observed_scores(observe)
    assert scores == {"t1": 9, "t2": None} and observed_scores(tmp_path / "missing.json") == {}
    uses = solve_uses(tmp_path / "cycles" / "001" / "solve", scores, "train")
    assert [(u.task, sorted(u.read), u.outcome) for u in uses] == [("t1", ["a"], 0.9), ("t2", [], None)]


def test_a_hostile_trajectory_counts_no_skill_it_could_not_have_read():
    """The trajectory is the agent's file: metadata.skills that is not a list, an inline_skill that is
    not an object, read_skill arguments no skill can be named (a path, a paragraph, a number) and
    metadata that is not an object give no offered or read skill, and never raise."""
    messages = [{"role": "user", "content": "do it"}]
    odd = [{"messages": messages, "metadata": {"skills": "git-basics"}},
           {"messages": messages, "metadata": {"skills": {"git-basics": 1}}},
           {"messages": messages, "metadata": {"inline_skill": "git-basics"}},
           {"messages": messages, "metadata": {"inline_skill": {"name": ["git-basics"]}}},
           {"messages": messages, "metadata": [["skills", ["a"]]]},
           {"messages": messages, "metadata": 5},
           {"messages": 5}, {"messages": [5]}, "not a trajectory", None]
    for data in odd:
        assert skills_of(data) == (frozenset(), frozenset()), data
    bad_names = ["../../etc/passwd", "Git-Basics", "a" * 65, "two words", "", " ", "-x", "a--b"]
    data = trajectory("t", ["ok-skill", *bad_names, 7, None], ["ok-skill", *[n for n in bad_names if n.strip()]])
    data["metadata"]["inline_skill"] = {"name": "../inline", "relevance": 1.0}
    offered, read = skills_of(data)
    assert offered == {"ok-skill"} and read == {"ok-skill"}
    data["metadata"]["inline_skill"] = {"name": "placed-one"}
    assert skills_of(data)[1] == {"ok-skill", "placed-one"}


def test_observe_json_of_any_shape_gives_scores_or_none(tmp_path):
    """observe.json is read back for every earlier cycle: a verdict that is not an object has no
    score, and items that are not a list are no items."""
    path = tmp_path / "observe.json"
    for data, expected in [({"items": [{"task": "t", "verdict": "x"}, {"task": "u", "verdict": [9]}]},
                            {"t": None, "u": None}),
                           ({"items": {"task": "t"}}, {}), ({"items": None}, {}), ([1, 2], {}),
                           ({"items": [{"task": "t", "verdict": {"score": 8}}, 3]}, {"t": 8})]:
        path.write_text(json.dumps(data))
        assert observed_scores(path) == expected, data


def test_the_observations_say_the_tests_only_where_they_ran_and_the_skill_use_once(tmp_path):
    """With trajectory_only off, tests.json is written for a task with a label and index.md says the
    same (a task without tests is "no tests", not "failed": the digest then leaves it to the judge);
    with it on, no test result anywhere. skills.md holds the skill use, shown again in index.md."""
    from adaptive_skill.evolve.digest import read_digest
    from adaptive_skill.observe.observations import SKILL_USE, TESTS, ObservedItem, write_observations

    verdict = {"score": 9, "category": "c", "outcome": "o", "failure_reason": None}
    items = [ObservedItem(task=t, verdict=verdict, signals={}, compressed="step 1") for t in ("a", "b", "c")]
    instructions = {"a": "A.", "b": "B.", "c": "C."}
    root = tmp_path / "labelled"
    write_observations(root, items, instructions, labels={"a": True, "b": False},
                       skill_use=["- zip-install: read in 1 of 2 attempts"])
    assert json.loads((root / "a" / TESTS).read_text()) == {"passed": True}
    assert json.loads((root / "b" / TESTS).read_text()) == {"passed": False} and not (root / "c" / TESTS).exists()
    index = (root / "index.md").read_text()
    assert "| a | 9 | c | o |  | passed |" in index and "| b | 9 | c | o |  | failed |" in index
    assert "| c | 9 | c | o |  | no tests |" in index
    assert (root / SKILL_USE).read_text().splitlines()[1] == "- zip-install: read in 1 of 2 attempts"
    assert index.rstrip().endswith("- zip-install: read in 1 of 2 attempts")
    assert read_digest(root, pass_threshold=7).tasks == ["b"]  # the tests decide; c has none: judged 9
    plain = tmp_path / "plain"
    write_observations(plain, items, instructions, labels=None, skill_use=[])
    assert not list(plain.rglob(TESTS)) and not (plain / SKILL_USE).exists()
    assert "tests" not in (plain / "index.md").read_text() and "Skill use" not in (plain / "index.md").read_text()


def test_the_engine_tells_the_evolver_train_skill_use_only(tmp_path):
    """engine/phase_observe.skill_use: the train attempts of cycles 1..n (earlier cycles' scores from their
    observe.json, this cycle's as judged now), for the workspace's current skills; holdout attempts
    (gate-mutated, baselines) are never read."""
    from types import SimpleNamespace

    from adaptive_skill.engine.phase_observe import skill_use
    from adaptive_skill.runs import RunDir

    run_dir = RunDir(tmp_path)
    for skill in ("zip-install", "unused-one"):
        (run_dir.workspace / "skills" / skill).mkdir(parents=True)
        (run_dir.workspace / "skills" / skill / "SKILL.md").write_text(f"---\nname: {skill}\n---\n")

    def solved(cycle: int, folder: str, task: str, reads: list[str]) -> None:
        path = run_dir.cycle_dir(cycle) / folder / "trajectories" / f"{task}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(trajectory(task, ["zip-install", "unused-one"], reads)))

    solved(1, "solve", "t1", ["zip-install"])
    solved(1, "solve", "t2", [])
    solved(2, "solve", "t1", [])
    solved(1, "gate-mutated/r1", "holdout-task", ["zip-install"])  # not train: never counted
    (run_dir.cycle_dir(1) / "observe.json").write_text(json.dumps({"items": [
        {"task": "t1", "verdict": {"score": 8}}, {"task": "t2", "verdict": {"score": 2}}]}))
    lines = skill_use(SimpleNamespace(run_dir=run_dir), 2, {"t1": 4.0})
    assert lines == ["- unused-one: read in 0 of 3 attempts",
                     "- zip-install: read in 1 of 3 attempts; judge score 8.0 when read, 4.0 when the same tasks "
                     "did not read it (1 attempts)"]
