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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "evolution"))


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
