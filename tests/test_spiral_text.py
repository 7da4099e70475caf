"""How the monitor reads commands, outputs and file writes."""

import pytest

from adaptive_skill.spiral.files import FileVersions, file_writes
from adaptive_skill.spiral.steps import error_signature
from adaptive_skill.spiral.text import cd_target, error_line, fingerprint, keywords, waits
from adaptive_skill.trajectory import StepRecord, step_failure
from adaptive_skill.trajectory.text import normalize_action


def is_failure(record: StepRecord) -> bool:
    return step_failure(record) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("cat  config.yaml", "cat config.yaml"),
    ("cat 'config.yaml'", 'cat "config.yaml"'),
    ("./run.sh --port 80", "run.sh --port 80"),
    ("/app/run.sh", "./run.sh"),
    ("grep -n x src//a.py;", "grep -n x ./src/a.py"),
    ("ls|wc -l", "ls | wc -l"),
])
def test_actions_that_are_the_same(a, b):
    assert normalize_action("bash", a, cwd="/app") == normalize_action("bash", b, cwd="/app")


@pytest.mark.parametrize(("a", "b"), [("cat a.txt", "cat b.txt"), ("rm -rf build", "rm -rf /build"),
                                      ("echo 'a  b'", "echo 'a b'")])
def test_actions_that_differ(a, b):
    assert normalize_action("bash", a, cwd="/app") != normalize_action("bash", b, cwd="/app")


def test_unreadable_quoting_falls_back_to_whitespace():
    assert normalize_action("bash", "cat > a <<EOF\ndon't\nEOF") == "bash:cat > a <<EOF don't EOF"
    assert normalize_action("read_skill", "  check-your-work ") == "read_skill:check-your-work"


def test_fingerprint_ignores_timings_clocks_addresses_and_spacing():
    a = "2024-05-01T10:00:01Z started\n1 failed, 3 passed in 0.21s\nobject at 0x7f3a2b  pid=4242"
    b = "2024-05-02T11:30:59Z started\n1 failed,  3 passed in 1.5s\n\nobject at 0x7f00ff  pid=99"
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint("rows: 10/100") != fingerprint("rows: 20/100")  # a moving counter is not noise
    assert fingerprint("\x1b[31mFAILED\x1b[0m") == fingerprint("FAILED")


def test_error_line_follows_the_error_not_the_frames():
    first = 'Traceback (most recent call last):\n  File "a.py", line 3\nNameError: name \'x\' is not defined'
    moved = 'Traceback (most recent call last):\n  File "a.py", line 9\nNameError: name \'x\' is not defined'
    assert error_line(first) == error_line(moved) and "NameError" in error_line(first)
    assert error_line("E  assert 1 == 2\n1 failed in 0.1s") != error_line("E  assert 3 == 2\n1 failed in 0.2s")
    assert error_line("just some text\nlast line") == "last line" and error_line("") == ""


def test_failures_and_their_signatures():
    assert not is_failure(StepRecord(1, "bash", "grep -q TODO src/a.py", "", 1))  # grep's "no match"
    assert is_failure(StepRecord(1, "bash", "grep -q TODO src/a.py | wc -l", "", 1))
    assert is_failure(StepRecord(1, "bash", "grep -q TODO missing.py", "grep: missing.py: No such file", 2))
    assert is_failure(StepRecord(1, "bash", "sleep 100", "", None, timed_out=True))
    assert is_failure(StepRecord(1, "read_skill", "nope", "", error="no skill named 'nope'"))
    assert is_failure(StepRecord(1, None, error="format: unknown tool 'python' (tools: bash)"))
    # a malformed reply is a failure too (one definition for signals, compression and the monitor)
    assert step_failure(StepRecord(1, None, error="format: no tool call in the reply")).kind == "format"
    silent = StepRecord(1, "bash", "false", "", 1)
    assert error_signature(silent, "bash:false") == "exit 1: bash:false"  # nothing said: the command is the error


def test_small_readers():
    assert cd_target("cd /app && make") == "/app" and cd_target("make -C sub") is None
    assert waits("sleep 2; curl -sf localhost:8000") and waits("until nc -z db 5432; do :; done")
    assert not waits("make test")
    assert {"src/parser.py", "parser", "pytest"} <= keywords("Fix src/parser.py so that pytest passes")
    assert "the" not in keywords("the task")


def test_file_writes_from_command_text():
    assert [(w.path, w.kind) for w in file_writes("cat > a.py <<'EOF'\nprint(1)\nEOF")] == [("a.py", "content")]
    assert [(w.path, w.kind) for w in file_writes("cat <<EOF > /app/b.txt\nhi\nEOF\nls")] == [("/app/b.txt", "content")]
    assert [(w.path, w.kind) for w in file_writes("tee c.txt <<EOF\nx\nEOF")] == [("c.txt", "content")]
    assert [(w.path, w.kind) for w in file_writes("echo 'x=1' >> d.env")] == [("d.env", "append")]
    assert file_writes("sed -i 's/a/b/g' e.py")[0].edit == ("a", "b", "g")
    assert file_writes("git restore f.py")[0].kind == "restore"
    assert file_writes("ls -la") == [] and file_writes("make > build.log 2>&1") == []


def test_file_versions_see_edits_undone():
    versions = FileVersions()
    seen = [versions.apply(n, file_writes(c)[0], "x.py") for n, c in enumerate([
        "sed -i 's/a/b/' x.py", "sed -i 's/b/a/' x.py", "sed -i 's/a/b/' x.py", "git checkout -- x.py"], 1)]
    assert seen[0] == seen[2] and seen[1] == seen[3] and seen[0] != seen[1]  # undone, redone, restored
    same = [versions.apply(5, file_writes(f"cat > y <<EOF\n{body}\nEOF")[0], "y") for body in ("1", "2", "1")]
    assert same[0] == same[2] != same[1]


def test_file_versions_follow_one_edit_made_and_undone_with_other_tools():
    """sed adds a keyword argument, Python's str.replace takes it out, perl puts it back, re.sub
    changes it, ed-style and heredoc Python edits follow: the versions read X, Y, X, Y, Z, Y, X."""
    commands = [
        "sed -i \"s/open(p, newline='')/open(p, newline='', encoding='utf-8-sig')/\" load.py",
        "python3 -c \"import pathlib; f=pathlib.Path('load.py'); f.write_text(f.read_text().replace(\\\", encoding='utf-8-sig'\\\", ''))\"",
        "perl -pi -e \"s/open\\(p, newline=''\\)/open(p, newline='', encoding='utf-8-sig')/\" load.py",
        "python3 - <<'EOF'\nimport re, pathlib\nf = pathlib.Path('load.py')\n"
        "f.write_text(re.sub(r\"encoding='utf-8-sig'\", \"encoding='latin-1'\", f.read_text()))\nEOF",
        "sed -i \"s/encoding='latin-1'/encoding='utf-8-sig'/\" load.py",
        "python3 - <<'EOF'\nimport pathlib\nf = pathlib.Path('load.py')\nf.write_text(f.read_text().replace(\", encoding='utf-8-sig'\", ''))\nEOF",
    ]
    versions = FileVersions()
    for step, command in enumerate(commands, 1):
        [write] = file_writes(command)
        assert write.path == "load.py" and write.edits, command
        versions.apply(step, write, write.path)
    seen = [v for _, v in versions.versions("load.py")]  # the version before the first edit comes first
    x, y, z = seen[0], seen[1], seen[4]
    assert seen == [x, y, x, y, z, y, x] and len({x, y, z}) == 3
    # an edit that is not understood (a line address) makes a new version nobody has seen
    versions.apply(9, file_writes("sed -i '3s/.*/pass/' load.py")[0], "load.py")
    assert versions.versions("load.py")[-1][1] not in {x, y, z}


def test_chores_are_named_by_their_tools_and_words():
    from adaptive_skill.spiral.chores import chores
    samples = {"typecheck": ["mypy --strict src", "Type the parser.", "add type hints"],
               "lint": ["golangci-lint run", "hadolint Dockerfile", "npx eslint src"],
               "format": ["shfmt -w backup.sh", "npx prettier --write .", "clang-format -i x.c"],
               "ci": ["touch .github/workflows/ci.yml", "pre-commit install", "npx husky-init"],
               "container": ["cat > Dockerfile", "docker-compose up"], "packaging": ["pip install -e .", "cat > tox.ini"],
               "docs": ["pdoc -o docs src", "an OpenAPI spec"], "logging": ["cat > /etc/logrotate.d/app", "switch to slog"],
               "observability": ["a Grafana dashboard", "install prometheus-nginx-exporter"],
               "deploy": ["ansible-playbook site.yml", "cat > ops/app.service"],
               "restructure": ["While I'm here, refactor the loader", "rewrite it in Python"], "deps": ["bump the tools"]}
    for kind, texts in samples.items():
        for text in texts:
            assert kind in chores(text), (kind, text)
    assert chores("python3 -m pytest -q tests/test_load.py") == frozenset()
    assert chores("CI also runs the format check. npm run format:check") == frozenset()  # naming CI is not CI work
