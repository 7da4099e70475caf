"""The label-free estimate's parts without Docker: which paths an attempt's state keeps, how checks
are screened, what the judge is shown, and the probe's arithmetic."""

import io
import sys
import tarfile
from pathlib import Path

from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.observe.checks import CheckedState, CheckRun, screen
from adaptive_skill.observe.judge import Judge, JudgeItem
from adaptive_skill.sandbox.state import CapturedState, StateRoot, named_paths, state_digest, state_roots

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "probes"))


def test_named_paths_and_roots():
    text = ("Count the lines in `/app/logs/access.log` and write it to /app/line_count.txt. Then copy "
            "/srv/data/ to /root/out.txt, read/write mode, see https://example.com/x and /tests/test.sh.")
    assert named_paths(text)[:3] == ["/app/logs/access.log", "/app/line_count.txt", "/srv/data"]
    assert state_roots(text, "/app") == ["/app", "/srv/data", "/root/out.txt"]
    # system directories and the verifier's places are never kept; a named parent covers its children
    assert state_roots("Fix /etc and /usr/bin and /logs/verifier/reward.txt and /solution/solve.sh", None) == []
    assert state_roots("Use /srv/a/b.txt and /srv/a", None) == ["/srv/a"]
    assert state_roots("x", "/") == [] and state_roots("`/app/x/../../etc/passwd`", None) == ["/etc/passwd"]


def _tar(members: dict[str, bytes], uid: int = 0) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), hash(name) % 1000  # times differ; the digest ignores them
            info.uid = uid
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_state_digest_ignores_gits_clock_but_not_the_work(tmp_path):
    def digest(members, uid=0):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        (folder / "0.tar").write_bytes(_tar(members, uid))
        return state_digest(folder, CapturedState(roots=[StateRoot("/app", "0.tar")]))

    same = digest({"app/repo/.git/refs/heads/feature": b"abc\n", "app/repo/.git/objects/ab/cd": b"1"})
    assert same == digest({"app/repo/.git/refs/heads/feature": b"abc\n", "app/repo/.git/objects/ab/ef": b"2"})
    assert same != digest({"app/repo/.git/refs/heads/main": b"abc\n"})
    assert digest({"app/a.txt": b"42"}) != digest({"app/a.txt": b"41"})
    assert digest({"app/a.txt": b"42"}) != digest({"app/a.txt": b"42"}, uid=1000)  # a chown is work done
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "0.tar").write_bytes(b"not a tar at all" * 100)
    assert state_digest(broken, CapturedState(roots=[StateRoot("/app", "0.tar")])) is None


def test_screen_keeps_one_bounded_line_and_refuses_the_verifiers_places():
    kept, refused = screen(["cat /app/a.txt", "cat /app/a.txt", "ls /tests", "cat /solution/solve.sh",
                            "x" * 300, "  ", "cat /logs/verifier/reward.txt", "cat\x1b[31m /app/a\nrm -rf /",
                            "ls /app 2>&1", "wc -l /app/a"])
    assert kept == ["cat /app/a.txt", "ls /app 2>&1", "wc -l /app/a"]
    assert len(refused) == 5 and all(len(r) < 200 for r in refused)
    # a small model writes the task's solution instead of a check (the 1.5B did, 2026-12-02): refused
    writes = ["echo 'debug=true' >> /app/app.conf", "cp /app/a /app/b", "git -C /app/repo checkout -b x",
              "sqlite3 /app/db \"UPDATE t SET x=1\"", "awk -F, '{print $1}' /app/a.csv > /app/b.csv",
              "tar -czf /app/x.tgz /app/site", "sed -i s/a/b/ /app/f", "cat /app/a | tee /app/b",
              "git -C /app/repo branch feature", "git -C /app/repo tag -a v1.0 -m x", "git init /app/p",
              "git -C /app/repo log; git -C /app/repo commit -m x"]
    assert screen(writes)[0] == [] and len(screen(writes)[1]) == len(writes)
    reads = ["git -C /app/repo log --oneline", "sqlite3 /app/db 'select * from t'", "git -C /app/repo branch -a",
             "git -C /app/repo tag -n | head", "git -C /app/repo log --oneline --all | wc -l"]
    assert [c for r in (reads[:3], reads[3:]) for c in screen(r)[0]] == reads


def test_looks_name_each_path_of_the_instruction():
    from adaptive_skill.observe.checks import looks

    assert looks("Count `/app/logs/access.log` into /app/n.txt; not /tests/x.") == [
        "look /app/logs/access.log", "look /app/n.txt"]
    assert looks("Make the script executable.") == ["look ."]
    assert looks("Write to '/app/a b.txt'") == ["look /app/a"]  # a space ends a path: the look shows it missing


def test_the_judge_sees_the_checks_only_when_there_are_some():
    trajectory = {"messages": [{"role": "user", "content": "Write 42"}]}
    judge = Judge(ScriptedLLM([]))
    plain = judge.messages("Write 42 to /app/a.txt.", trajectory)
    checked = CheckedState(runs=[CheckRun("cat /app/a.txt", 0, "41\n")])
    shown = judge.messages("Write 42 to /app/a.txt.", trajectory, evidence=checked.evidence())
    assert "final state" not in plain[1]["content"] and shown[0] == plain[0]
    assert shown[1]["content"].startswith(plain[1]["content"])  # the plain question is its prefix
    assert "# The final state, checked after the agent stopped" in shown[1]["content"]
    assert shown[1]["content"].endswith("commands showed.\n\n$ cat /app/a.txt\n(exit 0)\n41")
    assert judge.key(plain) != judge.key(shown)
    item = JudgeItem("Write 42 to /app/a.txt.", trajectory, "t", evidence=checked.evidence())
    assert item.evidence and CheckedState(error="no state").evidence() is None


def test_the_checks_fingerprint_ignores_times_and_hashes_not_content():
    def checked(output):
        return CheckedState(runs=[CheckRun("look /app/repo", 0, output)])

    one = checked("-rw-r--r-- 1 root root 5 Dec  2 09:34 /app/a\ncommits:\n3f2a9c1 add notes (HEAD -> main)\n")
    two = checked("-rw-r--r-- 1 root root 5 Dec 12 10:01 /app/a\ncommits:\nb07e2d4 add notes (HEAD -> main)\n")
    assert one.fingerprint() == two.fingerprint()
    assert one.fingerprint() != checked(one.runs[0].output.replace("add notes", "add note")).fingerprint()
    assert one.fingerprint() != checked(one.runs[0].output.replace(" 5 ", " 6 ")).fingerprint()


def test_probe_support_and_threshold_choice():
    import estimate_probe as probe

    rows = [{"task": "a", "f": "x"}, {"task": "a", "f": "x"}, {"task": "a", "f": "y"}, {"task": "b", "f": "x"},
            {"task": "b", "f": None}]
    assert probe.support(rows, "f") == [2, 2, 1, 1, 1]
    best = probe.best_at_precision([9, 9, 8, 7, 3], [True, True, False, True, False], target=0.9)
    assert best["threshold"] == 9 and best["recall"] == 2 / 3 and best["precision"] == 1.0
    assert probe.best_at_precision([5, 5], [False, False]) is None
    low, high = probe.wilson(9, 10)
    assert 0.59 < low < 0.6 and 0.98 < high < 0.99


def _git_state(tmp_path: Path, name: str, date: str, message: str = "Add notes", tag: str | None = None) -> str | None:
    """The digest of /app after a real git repository got one seed commit (fixed time, as an image's
    setup makes it) and then an attempt's commit made at `date`."""
    import os
    import subprocess

    app = tmp_path / name / "app"
    repo = app / "repo"
    repo.mkdir(parents=True)

    def git(*args, when):
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_GLOBAL": os.devnull}
        subprocess.run(["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main",
                        *args], cwd=repo, env=env, check=True, capture_output=True)

    git("init", "-q", when="2024-01-01T00:00:00")
    (repo / "README.md").write_text("seed\n")
    git("add", "README.md", when="2024-01-01T00:00:00")
    git("commit", "-q", "-m", "Seed", when="2024-01-01T00:00:00")
    (repo / "notes.txt").write_text("the work\n")
    git("add", "notes.txt", when=date)
    git("commit", "-q", "-m", message, when=date)
    if tag:
        git("tag", "-a", tag, "-m", "Release " + tag, when=date)
    folder = tmp_path / name / "state"
    folder.mkdir()
    with tarfile.open(folder / "0.tar", "w") as tar:
        tar.add(app, arcname="app")
    return state_digest(folder, CapturedState(roots=[StateRoot("/app", "0.tar")]))


def test_two_attempts_that_make_the_same_commit_agree_whenever_they_made_it(tmp_path):
    # Issue 66: the commit's hash holds its time, so refs/heads/main differed and every git task that
    # needs a commit was lost to the vote. With real git: same tree and message at two times agree.
    first = _git_state(tmp_path, "a", "2026-12-06T10:00:00")
    assert first is not None
    assert first == _git_state(tmp_path, "b", "2026-12-06T10:07:31")
    assert first != _git_state(tmp_path, "c", "2026-12-06T10:00:00", message="Add the notes")
    tagged = _git_state(tmp_path, "d", "2026-12-06T10:00:00", tag="v1.0")
    assert tagged not in (first, None)
    assert tagged == _git_state(tmp_path, "e", "2026-12-06T11:30:00", tag="v1.0")
    assert tagged != _git_state(tmp_path, "f", "2026-12-06T11:30:00", tag="v1.1")


def test_the_git_identity_is_bounded_against_crafted_objects(tmp_path):
    # The agent writes .git as it likes: objects that name each other as parents, a zlib bomb and a
    # ref to an unknown oid must neither loop, nor read without bound, nor crash the digest.
    import zlib

    a, b = "a" * 40, "b" * 40
    def obj(body: bytes, kind: bytes = b"commit") -> bytes:
        return zlib.compress(kind + b" %d\0" % len(body) + body)
    members = {f"app/.git/objects/{a[:2]}/{a[2:]}": obj(f"tree {'c' * 40}\nparent {b}\n\nx".encode()),
               f"app/.git/objects/{b[:2]}/{b[2:]}": obj(f"tree {'c' * 40}\nparent {a}\n\ny".encode()),
               f"app/.git/objects/dd/{'d' * 38}": zlib.compress(b"commit 1\0" + b"\0" * (64 << 20), 9),
               "app/.git/refs/heads/main": f"{a}\n".encode(), "app/.git/refs/tags/t": f"{'e' * 40}\n".encode(),
               "app/.git/HEAD": b"ref: refs/heads/main\n"}
    folder = tmp_path / "crafted"
    folder.mkdir()
    (folder / "0.tar").write_bytes(_tar(members))
    digest = state_digest(folder, CapturedState(roots=[StateRoot("/app", "0.tar")]))
    assert digest is not None and len(digest) == 64


def test_an_untouched_state_that_could_not_be_read_is_not_kept_and_is_read_again(tmp_path):
    """explore.agree reads each task's untouched files once and keeps them; a failure (a Docker hiccup)
    is not kept, so a resumed run tries again instead of leaving the task unchecked for good."""
    from taskfactory import make_task

    from adaptive_skill.sandbox.state import MANIFEST, capture_initial_state
    from adaptive_skill.tasks import load_task

    class Refusing:
        def open(self, task, labels=None, *, offline=False):
            raise RuntimeError("the engine did not answer")

    task = load_task(make_task(tmp_path / "suite", "t1"))
    dest = tmp_path / "untouched"
    state = capture_initial_state(Refusing(), task, dest)
    assert state.error and "did not answer" in state.error and not (dest / MANIFEST).exists()
    dest.mkdir(parents=True, exist_ok=True)
    (dest / MANIFEST).write_text('{"error": "kept by an older version", "roots": []}')
    assert "did not answer" in capture_initial_state(Refusing(), task, dest).error  # tried again, not reused
