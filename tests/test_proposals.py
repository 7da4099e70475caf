"""Proposed tasks without Docker: the task pull-back against hostile streams, the layout and
Dockerfile rules, the static reads-solution check, duplicates and novelty against the pool, the cap,
the rejections carried to the next prompt, the record format, loading the admitted tasks, the pool
rotation, and a resumed cycle that reuses what was checked. (The build, oracle and nop checks run
for real in test_proposals_docker.py.)"""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
from collections import Counter
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.config import ConfigError, EvolveConfig, PullbackConfig, SandboxConfig, load_config
from adaptive_skill.embed.lexical import LexicalEmbedder
from adaptive_skill.engine.records import ProposeResult
from adaptive_skill.files import write_json_atomic
from adaptive_skill.harness.providers import LocalProvider
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.novelty.tasks import ProposedTask
from adaptive_skill.proposals import TaskProposer, failure_seed, load_admitted, read_records
from adaptive_skill.proposals.admission import Pool, check_reads_solution
from adaptive_skill.proposals.author import author_instruction
from adaptive_skill.proposals.cycle import Idea, admit_most_novel, rejection_notes
from adaptive_skill.proposals.layout import TASK_RULES, check_layout, dockerfile_problem
from adaptive_skill.proposals.record import Checks, Cost, DuplicateCheck, ProposalRecord
from adaptive_skill.sandbox.pullback import pull_archive
from adaptive_skill.tasks import Task, batch_for_cycle, cycle_batch, proposed_batch

SECRET = b"SECRET-proposal-pullback-55e1"

# -- the pull-back of /task -------------------------------------------------------------------


def member(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"", mode: int = 0o644,
           link: str = "") -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname, info.size = kind, mode, link, len(data)
    return info, data


def archive(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def whole_task() -> list[tuple[tarfile.TarInfo, bytes]]:
    return [member("task", tarfile.DIRTYPE, mode=0o755), member("task/instruction.md", data=b"Count the lines.\n"),
            member("task/task.toml", data=b'[metadata]\ncategory = "text-processing"\ndifficulty = "easy"\n'),
            member("task/environment", tarfile.DIRTYPE), member("task/environment/Dockerfile",
                                                                data=b"FROM debian:bookworm-slim\n"),
            member("task/tests/test.sh", data=b"echo 1 > /logs/verifier/reward.txt\n", mode=0o755),
            member("task/solution/solve.sh", data=b"true\n", mode=0o755)]


def pull(tmp_path: Path, data: bytes, limits: PullbackConfig | None = None):
    tmp_path.mkdir(exist_ok=True)
    dest = tmp_path / "task"
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    return dest, pull_archive(chunks, dest, limits or EvolveConfig().task_proposal.pullback, "task", TASK_RULES)


def entries(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        mode = os.lstat(path).st_mode
        assert stat.S_ISDIR(mode) or stat.S_ISREG(mode), f"{path}: neither a file nor a directory"
        assert not mode & (stat.S_ISUID | stat.S_ISGID)
        found.append(path.relative_to(root).as_posix())
    return found


def test_a_whole_task_comes_back_and_loads(tmp_path):
    dest, result = pull(tmp_path, archive(*whole_task()))
    assert not result.refusals and result.files == 6  # members below task/ (implicit directories are not counted)
    assert os.access(dest / "tests/test.sh", os.X_OK)
    task, layout = check_layout(dest, "proposed-c001-1-count", 60.0)
    assert layout.ok and task.id == "proposed-c001-1-count" and task.category == "text-processing"


def test_hostile_members_are_refused_and_never_created(tmp_path):
    secret = tmp_path / "shadow"
    secret.write_bytes(SECRET)
    hostile = [
        member("task/tests/shadow", tarfile.SYMTYPE, link="/etc/shadow"),
        member("task/tests/host", tarfile.SYMTYPE, link=str(secret)),
        member("task/solution/up", tarfile.SYMTYPE, link="../../../../etc"),
        member("task/tests/hard", tarfile.LNKTYPE, link=str(secret)),
        member("task/tests/pipe", tarfile.FIFOTYPE),
        member("task/environment/null", tarfile.CHRTYPE),
        member("task/solution/suid", data=b"\x7fELF", mode=0o4755),
        member("task/environment/big.bin", data=b"\0" * ((1 << 20) + 1)),
        member("task/notes.txt", data=b"notes"),
        member("task/instruction.md/inner", data=b"x"),
        member("task/../escape.sh", data=b"x"),
        member("/etc/cron.d/job", data=b"x"),
        member("elsewhere/tests/test.sh", data=b"x"),
    ]
    dest, result = pull(tmp_path, archive(*whole_task(), *hostile))
    refused = {reason: r.names for reason, r in result.refusals.items()}
    assert refused["symlink"] == ["tests/shadow", "tests/host", "solution/up"]
    assert refused["hard link"] == ["tests/hard"] and refused["fifo"] == ["tests/pipe"]
    assert refused["device"] == ["environment/null"] and refused["setuid or setgid file"] == ["solution/suid"]
    assert refused["file larger than 1048576 bytes"] == ["environment/big.bin"]
    assert refused["only instruction.md, task.toml, environment/, tests/, solution/ come back"] == ["notes.txt"]
    assert refused["instruction.md must be a file"] == ["instruction.md/inner"]
    assert "name with '.', '..' or an empty part" in refused and "absolute or empty name" in refused
    assert refused["outside the task"] == ["elsewhere/tests/test.sh"]
    assert entries(dest) == ["environment", "environment/Dockerfile", "instruction.md", "solution", "solution/solve.sh",
                             "task.toml", "tests", "tests/test.sh"]
    assert not any(SECRET in p.read_bytes() for p in dest.rglob("*") if p.is_file())
    assert not (tmp_path / "escape.sh").exists()


def test_too_many_files_or_an_oversized_stream_bring_nothing_half_read(tmp_path):
    many = [member(f"task/tests/f{i}", data=b"x") for i in range(30)]
    limits = PullbackConfig(max_files=12, max_archive_bytes=1 << 20)
    _, result = pull(tmp_path / "a", archive(*whole_task(), *many), limits)
    assert result.files == 12 and result.refusals["more than 12 files and directories"].count == 36 - 12
    huge = [member(f"task/tests/f{i}", data=b"y" * 100_000) for i in range(20)]
    dest, result = pull(tmp_path / "b", archive(*whole_task(), *huge), limits)
    assert list(result.refusals) == [f"the task archive is larger than {1 << 20} bytes"]
    assert result.refusals[next(iter(result.refusals))].names == ["the whole task"] and entries(dest) == []


# -- layout and Dockerfile ----------------------------------------------------------------------


def layout_error(tmp_path: Path, name: str, changes: dict[str, str | None] | None = None) -> str | None:
    """The layout check's error for a task made by make_task with `changes` (None: remove the file)."""
    task_dir = make_task(tmp_path, name)
    for rel, text in (changes or {}).items():
        if text is None:
            (task_dir / rel).unlink()
        else:
            (task_dir / rel).write_text(text)
    task, check = check_layout(task_dir, f"proposed-c001-1-{name}", 120.0)
    assert (task is None) == (not check.ok)
    return check.error


def test_the_layout_check_uses_the_task_loader_and_names_the_file(tmp_path):
    assert layout_error(tmp_path, "fine") is None
    assert layout_error(tmp_path, "no-tests", {"tests/test.sh": None}) == "tests/test.sh: missing"
    assert layout_error(tmp_path, "empty", {"instruction.md": "  \n"}) == "instruction.md: empty"
    assert layout_error(tmp_path, "bad-toml", {"task.toml": "[metadata\n"}).startswith("task.toml: malformed TOML")
    assert layout_error(tmp_path, "no-solution", {"solution/solve.sh": None}) == "solution/solve.sh: missing"
    assert "docker_image" in layout_error(tmp_path, "prebuilt", {"task.toml": '[environment]\ndocker_image = "x"\n'})
    assert "allow_internet" in layout_error(tmp_path, "online", {"task.toml": "[environment]\nallow_internet = true\n"})
    assert layout_error(tmp_path, "no-dockerfile", {"environment/Dockerfile": None}) == "environment/Dockerfile: missing"
    assert layout_error(tmp_path, "long", {"instruction.md": "x" * 8001}) == "instruction.md: longer than 8000 characters"
    assert layout_error(tmp_path, "trivial", {"task.toml": '[metadata]\ndifficulty = "trivial"\n'}) == \
        "task.toml: [metadata] difficulty must be one of easy, medium, hard"
    task_dir = make_task(tmp_path, "odd-category")
    assert check_layout(task_dir, "p", 60.0, ["git", "build"])[1].error == \
        "task.toml: [metadata] category must be one of git, build"
    assert check_layout(task_dir, "p", 60.0, ["file-operations"])[1].ok


def test_a_loaded_proposal_is_tagged_built_offline_and_no_larger_than_a_default_task(tmp_path):
    task_dir = make_task(tmp_path, "greedy")
    (task_dir / "task.toml").write_text('[metadata]\ncategory = "git"\ndifficulty = "hard"\ntags = ["x"]\n'
                                        "[agent]\ntimeout_sec = 99999\n"
                                        "[environment]\ncpus = 64\nmemory_mb = 999999\nbuild_timeout_sec = 99999\n")
    task, check = check_layout(task_dir, "proposed-c002-1-greedy", 45.0)
    assert check.ok and task.id == "proposed-c002-1-greedy" and task.tags == ("proposed", "x")
    assert task.build_offline and task.build_timeout_sec == 45.0
    assert (task.agent_timeout_sec, task.cpus, task.memory_mb) == (600.0, 1.0, 2048)


@pytest.mark.parametrize("dockerfile, problem", [
    ("FROM debian:bookworm-slim\nWORKDIR /app\nRUN printf 'a\\n' > data.txt \\\n  && wc -l data.txt\n", None),
    ("# a comment\nFROM debian:bookworm AS base\nRUN true\nFROM base\nCOPY --from=base /etc/hostname /x\n", None),
    ("FROM adaptive-skill/debian-base:bookworm\nENV A=1\nUSER nobody\nCMD [\"bash\"]\n", None),
    ("FROM ubuntu:24.04\n", "FROM must name the local Debian base"),
    ("FROM --platform=linux/amd64 debian:bookworm-slim\n", "FROM must name the local Debian base"),
    ("ARG IMG=alpine\nFROM ${IMG}\n", "FROM must name the local Debian base"),
    ("FROM debian:bookworm-slim\nADD https://example.com/x /x\n", "ADD is not allowed"),
    ("FROM debian:bookworm-slim\nRUN --network=host true\n", "RUN flags (--network) are not allowed"),
    ("FROM debian:bookworm-slim\nRUN --mount=type=bind,source=/,target=/host true\n", "RUN flags (--mount)"),
    ("FROM debian:bookworm-slim\nCOPY --from=alpine:3 /bin/sh /sh\n", "COPY --from may name only an earlier stage"),
    ("# syntax=docker/dockerfile:1\nFROM debian:bookworm-slim\n", "parser directives are not allowed"),
    ("# escape=`\nFROM debian:bookworm-slim\n", "parser directives are not allowed"),
    ("RUN true\n", "the first instruction must be FROM"),
    ("FROM debian:bookworm-slim\nONBUILD RUN true\n", "ONBUILD is not allowed"),
    ("", "no FROM line"),
])
def test_the_dockerfile_keeps_to_the_offline_rules(tmp_path, dockerfile, problem):
    path = tmp_path / "Dockerfile"
    path.write_text(dockerfile)
    found = dockerfile_problem(path)
    assert (found is None) if problem is None else (problem in found), found


# -- reads the solution, duplicates, novelty --------------------------------------------------------


def test_the_static_check_finds_a_test_that_names_the_solution(tmp_path):
    clean = check_layout(make_task(tmp_path, "clean"), "c", 60.0)[0]
    assert check_reads_solution(clean).ok
    for name, line in [("abs", "cp /solution/solve.sh /tmp/x"), ("rel", "bash ../solution/run.sh"),
                       ("script", "source solve.sh"), ("upper", "cat /SOLUTION/x")]:
        task_dir = make_task(tmp_path, name)
        (task_dir / "tests" / "helpers").mkdir()
        (task_dir / "tests" / "helpers" / "check.sh").write_text(f"#!/bin/bash\n\n{line}\n")
        found = check_reads_solution(check_layout(task_dir, name, 60.0)[0])
        assert not found.ok and found.evidence == f"tests/helpers/check.sh:3: {line}"


def pool_task(tmp_path: Path, name: str, instruction: str, test: str) -> Task:
    task_dir = make_task(tmp_path, name, test=test)
    (task_dir / "instruction.md").write_text(instruction)
    return check_layout(task_dir, name, 60.0)[0]


def test_a_near_copy_of_a_pool_task_is_a_duplicate_and_novelty_ranks_against_the_pool(tmp_path):
    answer = "#!/bin/bash\n[ \"$(cat /app/answer.txt)\" = 42 ] && echo 1 > /logs/verifier/reward.txt\n"
    pool = Pool([pool_task(tmp_path, "answer", "Write 42 to /app/answer.txt.", answer),
                 pool_task(tmp_path, "git", "Find the lost commit in the reflog of /repo and tag it found.",
                           "#!/bin/bash\ngit -C /repo tag | grep -q found && echo 1 > /logs/verifier/reward.txt\n")],
                LexicalEmbedder())
    copy = pool_task(tmp_path, "copy", "Write 42 to /app/answer.txt.", answer)
    check = pool.check_duplicate(pool.embed(copy), 0.9)
    assert not check.ok and check.nearest == "answer" and check.similarity == 1.0 and check.threshold == 0.9
    other = pool_task(tmp_path, "other", "Sort the names in /data/names.csv by surname and save sorted.csv.",
                      "#!/bin/bash\nsort -c -t, -k2 /data/sorted.csv && echo 1 > /logs/verifier/reward.txt\n")
    check = pool.check_duplicate(pool.embed(other), 0.9)
    assert check.ok and check.similarity < 0.9
    # novelty: the pool as the cycle found it; a copy scores below something new
    assert pool.novelty(pool.embed(other)) > pool.novelty(pool.embed(copy))
    before = pool.novelty(pool.embed(other))
    pool.add("other", pool.embed(other))
    assert pool.novelty(pool.embed(other)) == before  # ranking ground does not move within a cycle
    assert pool.check_duplicate(pool.embed(other), 0.9).nearest == "other"  # later duplicates see it


def record(task_id: str, cycle: int = 1, **fields) -> ProposalRecord:
    base = {"title": task_id, "instruction": "Do a thing in the terminal.", "category": "git", "difficulty": "easy",
            "seed": "fails at git", "checks": Checks(duplicate=DuplicateCheck(threshold=0.9))}
    return ProposalRecord(id=task_id, cycle=cycle, **{**base, **fields})


def test_the_sound_ones_are_admitted_most_novel_first_up_to_the_cap():
    records = [record("a", novelty=0.2), record("b", novelty=0.7), record("c", novelty=0.5), record("d")]
    records[3].reject("oracle", "oracle: the tests fail after solve.sh (reward 0.0)")
    admit_most_novel(records, cap=2)
    assert [(r.id, r.status, r.rejected_check) for r in records] == [
        ("a", "rejected", "cap"), ("b", "admitted", None), ("c", "admitted", None), ("d", "rejected", "oracle")]
    assert records[0].reason.startswith("cap: sound, but number 3 by novelty of 3") and records[0].sound


def test_the_latest_earlier_cycles_rejections_go_into_the_next_prompt():
    old = record("x", cycle=1)
    old.reject("build", "build: timed out after 300 s")
    nop, oracle, capped = record("y", cycle=2), record("z", cycle=2), record("w", cycle=2)
    nop.reject("nop", "nop: the tests pass when nothing was done (reward 1.0)")
    oracle.reject("oracle", "oracle: the tests fail after solve.sh (reward 0.0)")
    capped.reject("cap", "cap: sound, but ...")
    notes = rejection_notes([old, nop, oracle, capped, record("v", cycle=3)], cycle=3)
    assert notes == [nop.reason, oracle.reason]
    assert rejection_notes([old, nop], cycle=2) == [old.reason]
    idea = ProposedTask(title="Tag it", instruction="Tag the lost commit of a repository.", category="git",
                        difficulty="easy", rationale="r")
    prompt = author_instruction(idea, "fails at git", notes)
    assert "Title: Tag it" in prompt and f"- {nop.reason}" in prompt and f"- {oracle.reason}" in prompt
    assert "rejected" not in author_instruction(idea, "fails at git", [])


def test_the_record_has_every_key_of_the_shared_format_and_reads_back(tmp_path):
    one = record("proposed-c001-1-tag", novelty=0.4, feasibility={"reward": 0.0, "passed": False},
                 cost=Cost(usd=0.01, tokens=300, seconds=12.5), status="admitted")
    data = one.to_dict()
    assert {"id", "cycle", "title", "instruction", "category", "difficulty", "seed", "status", "reason",
            "rejected_check", "checks", "novelty", "feasibility", "cost"} <= set(data)
    assert data["checks"]["duplicate"] == {"ok": None, "nearest": None, "similarity": None, "threshold": 0.9}
    assert data["checks"]["build"] == {"ok": None, "seconds": None, "error": None}
    assert data["cost"] == {"usd": 0.01, "tokens": 300, "seconds": 12.5}
    assert ProposalRecord.from_dict(json.loads(json.dumps(data))).to_dict() == data
    write_json_atomic(tmp_path / "proposed-c001-1-tag" / "proposal.json", data)
    write_json_atomic(tmp_path / "proposed-c001-2-old" / "proposal.json",  # the older kind: no status
                      {"id": "proposed-c001-2-old", "cycle": 1, "instruction": "x", "environment": "task-0"})
    assert [r.id for r in read_records(tmp_path)] == ["proposed-c001-1-tag"]
    result = ProposeResult(seed="s", proposed=[one, record("b")], ideas_stop="max_iterations: done")
    result.proposed[1].reject("nop", "nop: passes")
    again = ProposeResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again.to_dict() == result.to_dict()
    assert again.counts() == {"proposed": 2, "built": 0, "sound": 1, "admitted": 1}
    legacy = ProposeResult.from_dict({"seed": "s", "proposed": [{"id": "p", "environment": "task-0"}]})
    assert legacy.proposed == []


def test_admitted_tasks_load_from_their_folders_as_train_tasks_from_the_next_cycle(tmp_path):
    root = tmp_path / "proposals"
    for task_id, cycle, status in [("proposed-c001-1-a", 1, "admitted"), ("proposed-c001-2-b", 1, "rejected"),
                                   ("proposed-c002-1-c", 2, "admitted")]:
        make_task(root / task_id, "task")
        write_json_atomic(root / task_id / "proposal.json", record(task_id, cycle=cycle, status=status).to_dict())
    assert load_admitted(root, 1, 60.0) == []
    first = load_admitted(root, 2, 60.0)
    assert [(a.task.id, a.cycle) for a in first] == [("proposed-c001-1-a", 1)]
    assert first[0].task.tags[0] == "proposed" and first[0].task.path == root / "proposed-c001-1-a" / "task"
    assert [a.task.id for a in load_admitted(root, 3, 60.0)] == ["proposed-c001-1-a", "proposed-c002-1-c"]


# -- the pool's rotation ------------------------------------------------------------------------


def fake(task_id: str) -> Task:
    return Task(id=task_id, path=Path(task_id), layout="harbor", instruction="x")


def test_proposals_take_their_own_slot_and_never_reorder_the_suites_rotation():
    train = [fake(f"t{i}") for i in range(7)]
    admitted = [(fake("proposed-c002-1-a"), 2), (fake("proposed-c002-2-b"), 2), (fake("proposed-c005-1-c"), 5)]
    plain = [cycle_batch(train, [], 3, 1, 4, n) for n in range(1, 15)]
    mixed = [cycle_batch(train, admitted, 3, 1, 4, n) for n in range(1, 15)]
    # the suite's part is the batch a run without proposals gets, cycle by cycle
    assert [b[:3] for b in mixed] == plain == [batch_for_cycle(train, 3, 4, n - 1) for n in range(1, 15)]
    # so no train task comes twice before every train task came once: after each cycle, use counts differ by <= 1
    used: Counter[str] = Counter()
    for batch in mixed:
        used.update(t.id for t in batch[:3])
        counts = [used[t.id] for t in train]
        assert max(counts) - min(counts) <= 1, used
    # the own slot: nothing before cycle 3; a proposal never comes twice before every available one came once
    extra = [[t.id for t in b[3:]] for b in mixed]
    assert extra[:2] == [[], []] and all(len(e) == 1 for e in extra[2:])
    assert extra[2:5] == [["proposed-c002-1-a"], ["proposed-c002-2-b"], ["proposed-c002-1-a"]]
    assert extra[5] == ["proposed-c005-1-c"]  # new at cycle 6: it comes at once (used least)
    uses: Counter[str] = Counter()
    for cycle, ids in enumerate(extra[2:], 3):  # each pick is one of the least-used available tasks
        available = [task.id for task, made in admitted if made < cycle]
        assert uses[ids[0]] == min(uses[i] for i in available), (cycle, ids, uses)
        uses.update(ids)
    wider = [[t.id for t in proposed_batch(admitted, 2, n)] for n in range(3, 9)]
    assert all(len(set(ids)) == 2 for ids in wider) and wider[0] == ["proposed-c002-1-a", "proposed-c002-2-b"]
    assert len(proposed_batch(admitted, 5, 9)) == 3 and proposed_batch([], 1, 9) == []


# -- a resumed cycle -----------------------------------------------------------------------------


def test_a_resumed_cycle_reuses_its_ideas_and_checked_proposals(tmp_path):
    """Everything was checked before a restart (ideas.json, checks.json): nothing is asked of the model
    or a sandbox again, the ranking is made afresh, and each proposal.json replaces its checks.json."""
    config = EvolveConfig()
    root, work = tmp_path / "proposals", tmp_path / "cycles" / "001" / "propose"
    ideas = [Idea(rank, ProposedTask(title=t, instruction=f"{t} in the terminal, please.", category="git",
                                     difficulty="easy", rationale="r"), 0.5, {"kind": "none"})
             for rank, t in enumerate(["First", "Second"], 1)]
    write_json_atomic(work / "ideas.json", {"ideas": [i.to_dict() for i in ideas], "stop": "max_iterations: done"})
    sound, broken = record("proposed-c001-1-first", novelty=0.3), record("proposed-c001-2-second")
    broken.reject("oracle", "oracle: the tests fail after solve.sh (reward 0.0)")
    for one in (sound, broken):
        make_task(root / one.id, "task")
        write_json_atomic(root / one.id / "checks.json", one.to_dict())

    def no_sandbox():
        raise AssertionError("a checked proposal was written again")

    proposer = TaskProposer(config, ScriptedLLM([]), LexicalEmbedder(), root=root, sandbox_factory=no_sandbox,
                            provider=LocalProvider(SandboxConfig(kind="local")), accounting=ScriptedLLM([]).accounting)
    done = proposer.run(1, "fails at git", [], work)
    assert [(r.id, r.status) for r in done.records] == [("proposed-c001-1-first", "admitted"),
                                                        ("proposed-c001-2-second", "rejected")]
    assert done.ideas_stop == "max_iterations: done"
    assert not list(root.glob("*/checks.json")) and len(read_records(root)) == 2


def test_failure_seed_and_the_docker_requirement(tmp_path):
    items = [{"verdict": {"score": 3, "category": "git", "failure_reason": "lost the commit"}},
             {"verdict": {"score": 9, "category": "build", "failure_reason": None}}, {"verdict": None}]
    assert failure_seed(items, 7.0) == "Improve a terminal agent that fails at: git (lost the commit)"
    assert failure_seed(items[1:], 7.0) is None
    with pytest.raises(ConfigError, match="task_proposal.enabled needs sandbox.kind: docker"):
        load_config(None, ["task_proposal.enabled=true", "sandbox.kind=local"])
