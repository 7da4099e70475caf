"""Proposed tasks become real tasks (Docker, scripted models, the real engine): one cycle proposes
three whole tasks (one sound, one whose oracle fails, one that the no-op agent passes); only the
sound one joins the pool, the others are kept with their reasons; the next cycle's batch draws the
admitted task, verified by its own tests; the next proposals' prompt carries the rejections; a
proposal that copies an admitted task is refused as a duplicate. Then the checks one by one against
real builds and attempts: the build is offline and has a timeout, and the oracle's tests run without
/solution."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from taskfactory import make_task, scripted_engine_config

from adaptive_skill.config import load_config
from adaptive_skill.engine import AdaptiveSkillEngine
from adaptive_skill.engine.phase_propose import admitted_tasks

pytestmark = pytest.mark.docker

CONTRACT_KEYS = {"id", "cycle", "title", "instruction", "category", "difficulty", "seed", "status", "reason",
                 "rejected_check", "checks", "novelty", "feasibility", "cost"}
CHECK_KEYS = {"layout": {"ok", "error"}, "build": {"ok", "seconds", "error"},
              "oracle": {"reward", "passed", "detail"}, "nop": {"reward", "passed", "detail"},
              "reads_solution": {"ok", "evidence"}, "duplicate": {"ok", "nearest", "similarity", "threshold"}}


def bash(command, **extra):
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}], **extra}


def submit(answer):
    return {"tool_calls": [{"name": "submit", "arguments": {"answer": answer}}]}


def write_files(files: dict[str, str]) -> str:
    """A shell command that writes each file under /task (quoted heredocs: nothing expands)."""
    lines = []
    for rel, text in files.items():
        path = f"/task/{rel}"
        lines.append(f"mkdir -p {os.path.dirname(path)} && cat > {path} <<'TASKEOF'\n{text.rstrip()}\nTASKEOF")
    return "\n".join(lines)


def task_files(instruction: str, category: str, dockerfile: str, test: str, solve: str) -> dict[str, str]:
    return {"instruction.md": instruction,
            "task.toml": f'[metadata]\ncategory = "{category}"\ndifficulty = "easy"\n[environment]\nmemory_mb = 256\n',
            "environment/Dockerfile": dockerfile, "tests/test.sh": test, "solution/solve.sh": solve}


def reward_if(condition: str) -> str:
    return f"if {condition}; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n"


SOUND = task_files(
    "Count the lines of /app/data.txt and write the number alone to /app/count.txt.", "text-processing",
    "FROM debian:bookworm-slim\nWORKDIR /app\nRUN printf 'alpha\\nbeta\\ngamma\\n' > /app/data.txt\n",
    "#!/bin/bash\n" + reward_if('[ "$(cat /app/count.txt 2>/dev/null)" = "3" ]'),
    "#!/bin/bash\nwc -l < /app/data.txt > /app/count.txt\n")
# what a hostile proposer leaves besides the task: a link to a host secret, a fifo, a huge file, a stray file
HOSTILE = ("ln -s /etc/shadow /task/tests/shadow && mkfifo /task/tests/pipe && "
           "head -c 3000000 /dev/zero > /task/environment/big.bin && echo notes > /task/notes.txt && "
           "bash /task/tests/test.sh; echo nop-reward=$(cat /logs/verifier/reward.txt)")
ORACLE_FAILS = task_files(
    "Reverse the order of the words in /app/words.txt and write them on one line to /app/out.txt.",
    "text-processing", "FROM debian:bookworm-slim\nWORKDIR /app\nRUN echo 'one two three' > /app/words.txt\n",
    "#!/bin/bash\n" + reward_if('[ "$(cat /app/out.txt 2>/dev/null)" = "three two one" ]'),
    "#!/bin/bash\necho 'one two three' > /app/out.txt\n")  # not reversed
NOP_PASSES = task_files(
    "Write the greeting hello into /app/greeting.txt so the team sees it.", "file-operations",
    "FROM debian:bookworm-slim\nWORKDIR /app\n",
    "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n",  # checks nothing
    "#!/bin/bash\necho hello > /app/greeting.txt\n")


def idea(title: str, instruction: str, category: str) -> dict:
    return {"content": {"title": title, "instruction": instruction, "category": category, "difficulty": "easy",
                        "rationale": "the agent failed at this kind of work"}}


USAGE = {"usage": {"prompt_tokens": 120, "completion_tokens": 80}}
PROPOSER = [
    # the proposer's sandbox sessions: write the task, then submit
    {"when": r"\[exit code", **submit("wrote the task")},
    {"when": "Title: Count the lines", **bash(write_files(SOUND) + "\n" + HOSTILE, **USAGE)},
    {"when": "Title: Reverse the words", **bash(write_files(ORACLE_FAILS), **USAGE)},
    {"when": "Title: Say hello", **bash(write_files(NOP_PASSES), **USAGE)},
    # the novelty loop (contrastive: each prompt lists the tasks before it)
    {"when": "- Reverse the words", **idea("Say hello", "Write a greeting file that the team can read.",
                                           "file-operations")},
    {"when": "- Count the lines", **idea("Reverse the words", "Reverse the words of a file and save the result.",
                                         "text-processing")},
    idea("Count the lines", "Count the lines of a data file and write the count to a file.", "text-processing"),
]
AGENT = [{"when": r"\[exit code", **submit("done")}, bash("echo PLAIN")]
JUDGE = [{"content": {"score": 5, "category": "file-operations", "outcome": "Printed something and stopped.",
                      "failure_reason": "never wrote the answer file"}}]
EVOLVER = [submit("nothing to change")] * 2  # one turn a cycle


@pytest.fixture
def config_path(tmp_path, docker_client, base_image):
    return scripted_engine_config(
        tmp_path, {"agent": AGENT, "judge": JUDGE, "evolver": EVOLVER, "proposer": PROPOSER}, max_cycles=2,
        task_proposal={"enabled": True, "tasks_per_cycle": 3, "max_admitted": 2, "feasibility": True},
        novelty={"max_iterations": 3, "threshold": 2.0, "contrastive": True, "seed": 1})


def by_title(records: list[dict]) -> dict[str, dict]:
    return {r["title"]: r for r in records}


def test_one_cycle_admits_only_the_sound_proposal_and_the_next_batch_draws_it(config_path):
    engine = AdaptiveSkillEngine.start(load_config(config_path), run_id="proposing")
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root

    first = json.loads((run / "cycles/001/propose.json").read_text())
    assert first["counts"] == {"proposed": 3, "built": 3, "sound": 1, "admitted": 1}
    records = by_title(first["proposed"])
    sound, broken, trivial = records["Count the lines"], records["Reverse the words"], records["Say hello"]
    for record in (sound, broken, trivial):  # every proposal.json holds the whole shared format
        on_disk = json.loads((run / "proposals" / record["id"] / "proposal.json").read_text())
        assert on_disk == record and CONTRACT_KEYS <= set(on_disk)
        assert {k: set(v) for k, v in on_disk["checks"].items()} == CHECK_KEYS
        assert record["id"].startswith("proposed-c001-") and record["cycle"] == 1
        assert record["cost"]["tokens"] == 200 and record["cost"]["seconds"] > 0
        assert (run / "proposals" / record["id"] / "transcript.jsonl").is_file()
        assert not (run / "proposals" / record["id"] / "checks.json").exists()

    assert sound["status"] == "admitted" and sound["reason"] is None and sound["rejected_check"] is None
    checks = sound["checks"]
    assert checks["layout"] == {"ok": True, "error": None} and checks["build"]["ok"]
    assert checks["oracle"]["passed"] and checks["oracle"]["reward"] == 1.0
    assert checks["nop"]["passed"] is False and checks["nop"]["reward"] == 0.0
    assert checks["reads_solution"]["ok"] and "/solution removed" in checks["reads_solution"]["evidence"]
    assert checks["duplicate"]["ok"] and checks["duplicate"]["similarity"] < checks["duplicate"]["threshold"] == 0.9
    assert isinstance(sound["novelty"], float) and sound["novelty"] > 0
    assert sound["instruction"].startswith("Count the lines of /app/data.txt")  # the task's own instruction.md
    assert sound["feasibility"] == {"reward": 0.0, "passed": False}  # the scripted agent only echoes
    assert (run / "proposals" / sound["id"] / "feasibility" / f"{sound['id']}.json").is_file()

    assert broken["status"] == "rejected" and broken["rejected_check"] == "oracle"
    assert broken["reason"] == "oracle: the tests fail after solve.sh (reward 0.0)"  # the tests printed nothing
    assert broken["checks"]["oracle"]["passed"] is False and broken["checks"]["nop"]["passed"] is None
    assert broken["novelty"] is None and broken["feasibility"] is None
    assert trivial["status"] == "rejected" and trivial["rejected_check"] == "nop"
    assert trivial["reason"] == "nop: the tests pass when nothing was done (reward 1.0)"
    assert trivial["checks"]["oracle"]["passed"] and trivial["checks"]["reads_solution"]["ok"] is None

    # the hostile leftovers were refused at pull-back and never created on the host
    refused = "\n".join(sound["pullback"])
    for words in ("symlink): tests/shadow", "fifo): tests/pipe", "larger than 1048576 bytes): environment/big.bin",
                  "come back): notes.txt"):
        assert words in refused, refused
    task_dir = run / "proposals" / sound["id"] / "task"
    assert sorted(p.relative_to(task_dir).as_posix() for p in task_dir.rglob("*") if p.is_file()) == [
        "environment/Dockerfile", "instruction.md", "solution/solve.sh", "task.toml", "tests/test.sh"]
    for path in (run / "proposals").rglob("*"):
        assert stat.S_ISDIR(os.lstat(path).st_mode) or stat.S_ISREG(os.lstat(path).st_mode), path
    # the proposer's shell was an unprivileged user: the session's test run showed the nop reward
    transcript = [json.loads(line) for line in (run / "proposals" / sound["id"] / "transcript.jsonl").open()]
    assert any("nop-reward=0" in str(m.get("content")) for m in transcript)

    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    proposed = [e for e in events if e["event"] == "task_proposed" and e["cycle"] == 1]
    assert sorted((e["task"], e["status"], e["rejected_check"]) for e in proposed) == sorted(
        (r["id"], r["status"], r["rejected_check"]) for r in (sound, broken, trivial))
    assert all(e["reason"] == records_by_id(first)[e["task"]]["reason"] for e in proposed)

    # cycle 2: the suite's two tasks and the admitted one in its own slot, verified by its own tests
    solved = json.loads((run / "cycles/002/solve.json").read_text())
    first_batch = json.loads((run / "cycles/001/solve.json").read_text())["tasks"]
    assert len(first_batch) == 2 and len(solved["tasks"]) == 3 and solved["tasks"][2] == sound["id"]
    result = next(r for r in solved["results"] if r["task_id"] == sound["id"])
    assert result["failure_mode"] == "unresolved" and result["reward"] == 0.0  # the tests ran: a real label
    admitted = admitted_tasks(engine, 3)
    assert [a.task.id for a in admitted] == [sound["id"]] and admitted[0].task.tags[0] == "proposed"
    assert sound["id"] not in {t.id for t in engine.holdout} and admitted[0].task.build_offline

    # cycle 2's proposals: the prompt carries cycle 1's reasons; the sound one now copies an admitted task
    second = by_title(json.loads((run / "cycles/002/propose.json").read_text())["proposed"])
    prompt = [json.loads(line) for line in (run / "proposals" / second["Count the lines"]["id"] / "transcript.jsonl")
              .open()][1]["content"]
    assert "Earlier proposals were rejected" in prompt
    assert broken["reason"] in prompt and trivial["reason"] in prompt
    again = second["Count the lines"]
    assert again["status"] == "rejected" and again["rejected_check"] == "duplicate"
    assert again["checks"]["duplicate"]["nearest"] == sound["id"] and again["checks"]["duplicate"]["similarity"] > 0.9

    # the proposer's calls are in the cost journal, as role proposer in the propose phase
    journal = [json.loads(line) for line in (run / "costs.jsonl").read_text().splitlines()]
    mine = [e for e in journal if e["role"] == "proposer"]
    assert mine and all(e["phase"] == "propose" for e in mine)
    assert sum(e["prompt_tokens"] + e["completion_tokens"] for e in mine if e["task"] == sound["id"]) == 200


def records_by_id(propose: dict) -> dict[str, dict]:
    return {r["id"]: r for r in propose["proposed"]}


# -- the checks one by one, against real builds and attempts -------------------------------------


@pytest.fixture
def provider(docker_client, base_image):
    from adaptive_skill.config import SandboxConfig
    from adaptive_skill.harness.providers import DockerProvider

    return DockerProvider(SandboxConfig(), client=docker_client)


def proposal(tmp_path: Path, name: str, timeout: float = 120.0, **files):
    from adaptive_skill.proposals.layout import check_layout

    make_task(tmp_path, name, **files)
    task, layout = check_layout(tmp_path / name, f"proposed-c001-1-{name}", timeout)
    assert layout.ok, layout.error
    return task


def test_the_build_is_offline_and_has_a_timeout(tmp_path, provider):
    from adaptive_skill.proposals.admission import check_build

    ok = check_build(proposal(tmp_path, "fine", dockerfile="FROM debian:bookworm-slim\nRUN echo built\n"), provider)
    assert ok.ok and ok.error is None and ok.seconds is not None
    # no network while building: this step succeeds only where the build sees no interface but loopback,
    # and fails for a suite task, built with the host network (an ENV line apart, so no cached layer is reused)
    step = "RUN test \"$(tail -n +3 /proc/net/dev | cut -d: -f1 | xargs)\" = lo || (echo has-network; exit 7)\n"
    offline = proposal(tmp_path, "offline-only", dockerfile="FROM debian:bookworm-slim\nENV SIDE=offline\n" + step)
    assert check_build(offline, provider).ok
    online = proposal(tmp_path, "online", dockerfile="FROM debian:bookworm-slim\nENV SIDE=online\n" + step)
    online = check_build(replace(online, id="suite-online", build_offline=False), provider)
    assert online.ok is False and "7" in online.error, online
    failed = check_build(proposal(tmp_path, "fails", dockerfile="FROM debian:bookworm-slim\nRUN exit 3\n"), provider)
    assert failed.ok is False and "3" in failed.error
    slow = check_build(proposal(tmp_path, "slow", timeout=3, dockerfile="FROM debian:bookworm-slim\nRUN sleep 60\n"),
                       provider)
    assert slow.ok is False and "timed out after 3 s" in slow.error
    refused = check_build(proposal(tmp_path, "pulls", dockerfile="FROM alpine:3\nRUN true\n"), provider)
    assert refused.ok is False and refused.seconds is None and "FROM must name the local Debian base" in refused.error


def test_the_oracles_tests_run_without_the_solution(tmp_path, provider, test_session_labels):
    """A test that reads the solution at run time (hidden from the static check) fails the oracle:
    /solution is gone when the tests run. The same test passes when the solution is left in place."""
    from adaptive_skill.harness.agents import OracleAgent
    from adaptive_skill.harness.attempt import run_attempt
    from adaptive_skill.proposals.admission import check_nop, check_oracle, check_reads_solution

    sneaky = "#!/bin/bash\n" + reward_if('grep -q 42 "/sol""ution/sol""ve.sh"')  # names no solution path literally
    task = proposal(tmp_path, "sneaky", test=sneaky)
    assert check_reads_solution(task).ok  # the static check cannot see it...
    oracle = check_oracle(task, provider, test_session_labels)
    assert oracle.passed is False and oracle.reward == 0.0  # ...the run without /solution does
    assert run_attempt(task, OracleAgent(), provider, test_session_labels).passed  # with /solution it would pass
    assert check_nop(task, provider, test_session_labels).passed is False

    honest = proposal(tmp_path, "honest")
    assert check_oracle(honest, provider, test_session_labels).passed
    plain = "#!/bin/bash\n# compare with /solution/solve.sh\n" + reward_if("true")
    named = check_reads_solution(proposal(tmp_path, "names-it", test=plain))
    assert named.ok is False and named.evidence == "tests/test.sh:2: # compare with /solution/solve.sh"

