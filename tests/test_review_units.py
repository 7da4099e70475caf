"""The review app without Docker: a run directory written by hand (real git workspace, one escalated
trajectory, one rejected mutation, proposed tasks), served by the real `adaptive-skill review`
command over HTTP. Bad input (unknown run, a second server, malformed posts, a run still going),
ratings that survive a SIGKILL, the export, the agreement figures, the report's section and the
verdicts the engine takes from people."""

import json
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from adaptive_skill.config import load_config
from adaptive_skill.errors import ConfigError
from adaptive_skill.files import write_json_atomic
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.ratings import HumanVerdicts, Rating, RatingStore, read_ratings, solve_key
from adaptive_skill.report import build, render_html, render_markdown
from adaptive_skill.review.agreement import between_raters, krippendorff_alpha, machine_vs_people, spearman
from adaptive_skill.review.forms import FormError, parse_answers
from adaptive_skill.review.human import human_review
from adaptive_skill.review.items import collect
from adaptive_skill.versioning import WorkspaceRepo
from adaptive_skill.workspace import copy_workspace

REPO = Path(__file__).resolve().parents[1]
INJECTION = "<script>alert(1)</script>"
SKILL = ("---\nname: poll-politely\ndescription: Use when waiting for a service.\n---\n## Steps\n1. Sleep between "
         "polls.\n## Verification\n- the service answers\n")


def event(kind, **data):
    return json.dumps({"v": 1, "ts": time.time(), "event": kind, **data}) + "\n"


def hand_run(root: Path, finished: bool = True) -> Path:
    """One cycle: task t-loop escalated by the monitor (judge 4, verifier failed), t-ok judged 9;
    a mutation that the gate rejected; three proposal iterations, one of them failed."""
    run = root / "run-hand"
    copy_workspace(REPO / "workspace", run / "workspace")
    repo = WorkspaceRepo.init(run / "workspace")
    repo.tag("evo-0", {"cycle": 0})
    seed = repo.head()
    (run / "workspace" / "skills" / "poll-politely").mkdir()
    (run / "workspace" / "skills" / "poll-politely" / "SKILL.md").write_text(SKILL)
    candidate = repo.snapshot("cycle 1: candidate mutation")
    repo.rollback(seed, "rejected")
    (run / "config.yaml").write_text("judge:\n  pass_threshold: 7\ngating:\n  score: judge\n")
    cycle = run / "cycles" / "001"
    results = []
    for task, passed, escalated in (("t-loop", False, True), ("t-ok", True, False)):
        path = cycle / "solve" / "trajectories" / f"{task}.json"
        trajectory = {
            "task_id": task, "status": "halted" if escalated else "submitted", "instruction": f"Wait for {task}.",
            "metadata": {"needs_review": True, "stop_reason": "escalate by exact_repetition"} if escalated else {},
            "events": [{"step": 1, "detector": "exact_repetition", "action": "escalate",
                        "evidence": {"summary": "same command 3 times"}}] if escalated else [],
            "steps": [{"index": 1, "tool": "bash", "argument": "cat status", "output": INJECTION, "exit_code": 0,
                       "message_index": 2}],
            "messages": [{"role": "system", "content": "You are a terminal agent."},
                         {"role": "user", "content": f"Wait for {task}."},
                         {"role": "assistant", "content": None, "tool_calls": [
                             {"id": "1", "type": "function",
                              "function": {"name": "bash", "arguments": '{"command": "cat status"}'}}]},
                         {"role": "tool", "tool_call_id": "1", "content": INJECTION}]}
        write_json_atomic(path, trajectory)
        result = {"task_id": task, "agent": "llm", "passed": passed, "reward": float(passed),
                  "failure_mode": None, "trajectory_path": str(path)}
        write_json_atomic(cycle / "solve" / "results" / f"{task}.json", result)
        results.append(result)
    verdict = {"category": "other", "outcome": "x", "failure_reason": "y", "status": "ok"}
    phases = {
        "solve": {"tasks": ["t-loop", "t-ok"], "results": results},
        "observe": {"items": [{"task": "t-loop", "verdict": {**verdict, "score": 4}},
                              {"task": "t-ok", "verdict": {**verdict, "score": 9, "failure_reason": None}}]},
        "evolve": {"mutated": True, "candidate": candidate, "candidate_hash": "ab" * 32,
                   "changes": {"created_skills": ["poll-politely"], "modified_skills": [], "deleted_skills": []}},
        "gate": {"accepted": False, "gated": True, "reason": "worse on holdout", "baseline_commit": seed,
                 "mutated_commit": candidate, "delta": -2.0, "per_task": []},
        "commit": {"tag": None, "commit": seed, "rolled_back": True},
        "converge": {"egl": 0.0},
    }
    for name, data in phases.items():
        write_json_atomic(cycle / f"{name}.json", data)
    lines = [event("run_start", run=str(run)), event("cycle_start", cycle=1)]
    lines += [event("phase_end", cycle=1, phase=name, summary={}, cost={"cost": 0.0}) for name in phases]
    if finished:
        lines.append(event("run_end", status="max_cycles", cycle=2))
    (run / "events.jsonl").write_text("".join(lines))
    write_json_atomic(run / "checkpoint.json", {"version": 1, "cycle": 2, "done": [], "status": "max_cycles"})
    task = {"title": "Rotate <logs>", "instruction": "Rotate the logs in /var/log/app without losing a line.",
            "category": "system-administration", "difficulty": "medium", "rationale": "an SRE would"}
    write_json_atomic(run / "proposals" / "ideas.json", {"seed": "ops", "iterations": [
        {"index": 1, "task": task, "novelty": {"score": 0.2}},
        {"index": 2, "task": None, "error": "model failed"},
        {"index": 3, "task": {**task, "title": "Repair a torn sqlite file"}, "novelty": {"score": 0.6}}]})
    return run


@pytest.fixture
def run(tmp_path):
    return hand_run(tmp_path)


class Server:
    """`adaptive-skill review RUN --port 0` as a person starts it; its address read from its first line."""

    def __init__(self, run: Path, *args: str):
        self.process = subprocess.Popen([sys.executable, "-m", "adaptive_skill", "review", str(run), "--port", "0",
                                         *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in self.process.stdout], daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=120)
            except queue.Empty:
                line = ""
            if not line:
                self.process.kill()
                raise AssertionError(f"no address from the review server: {self.process.communicate()}")
            self.lines.append(line)
            found = re.search(r" at (http://127\.0\.0\.1:\d+/)", line)
            if found:
                self.url = found.group(1)
                break
        self.client = httpx.Client(base_url=self.url, timeout=60)

    def stop(self, sig=signal.SIGINT) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.communicate(timeout=60)


@pytest.fixture
def serve():
    started = []

    def start(run, *args):
        server = Server(run, *args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop(signal.SIGKILL)


def token_of(html: str) -> str:
    return re.search(r'name="token" value="([^"]+)"', html).group(1)


def open_item(client: httpx.Client, kind: str | None = None) -> tuple[str, str]:
    """Walk the rater's queue until an item of `kind`: (its path, its page)."""
    response = client.get("/next", follow_redirects=True)  # signs in first where --rater allows it
    path, page = response.url.path, response.text
    for _ in range(10):
        if kind is None or f'data-kind="{kind}"' in page:
            return path, page
        path = re.search(r'href="([^"]+)" id="skip"', page).group(1)
        page = client.get(path).text
    raise AssertionError(f"no {kind} item in the queue")


GOOD = {"trajectory": {"solved": "no", "score": "3", "what_went_wrong": "polled forever"},
        "mutation": {"useful": "2", "novel": "4", "comment": ""},
        "task": {"novel": "5", "feasible": "4"}}


def test_items_are_blind_and_complete(run):
    items = collect(run)
    assert sorted(i.kind for i in items) == ["mutation", "task", "task", "trajectory"]
    trajectory = next(i for i in items if i.kind == "trajectory")
    assert trajectory.key == solve_key(1, "t-loop") and trajectory.facts["judge_score"] == 4.0
    assert trajectory.facts["passed"] is False and trajectory.facts["cycle"] == 1
    mutation = next(i for i in items if i.kind == "mutation")
    assert "+name: poll-politely" in mutation.body["diff"] and mutation.facts["accepted"] is False
    shown = json.dumps([i.body for i in items]) + " ".join(i.title + i.id for i in items)
    for secret in ('"score"', "cycle", "accepted", "rejected", "novelty", "evo-0", "an SRE would"):
        assert secret not in shown, secret
    assert all(re.fullmatch(r"[0-9a-f]{12}", i.id) for i in items)


def test_rate_every_kind_over_http_and_export(run, serve, tmp_path):
    server = serve(run, "--rater", "alice")
    client = server.client
    assert client.get("/").headers["location"] == "/next"  # --rater: no sign-in page
    for kind in ("trajectory", "mutation", "task"):
        path, page = open_item(client, kind)
        assert "judge" not in page.lower() and "cycle" not in page and "evo-0" not in page
        assert INJECTION not in page
        if kind == "trajectory":  # the agent's output, escaped like any other text
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        response = client.post(path, data={"token": token_of(page), **GOOD[kind]})
        assert response.status_code == 303 and response.headers["location"] == "/next", response.text
    # the fourth item, then the queue is empty and leads to the summary
    path, page = open_item(client)
    client.post(path, data={"token": token_of(page), **GOOD["task"]})
    assert client.get("/next").headers["location"] == "/summary"
    summary = client.get("/summary").text
    assert "4 / 4 rated" in summary and "no item has two raters yet" in summary
    assert client.get("/export.csv").text.count("\n") == 5
    server.stop()

    ratings = read_ratings(run)
    assert sorted(r.kind for r in ratings) == ["mutation", "task", "task", "trajectory"]
    assert {r.rater for r in ratings} == {"alice"}
    trajectory = next(r for r in ratings if r.kind == "trajectory")
    assert trajectory.answers == {"solved": False, "score": 3, "what_went_wrong": "polled forever"}
    for name in ("ratings.csv", "ratings.json"):
        result = subprocess.run([sys.executable, "-m", "adaptive_skill", "review", "--run", str(run),
                                 "--out", str(tmp_path / name)], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0 and "4 rating(s)" in result.stdout, result.stderr
    rows = json.loads((tmp_path / "ratings.json").read_text())
    assert {r["kind"] for r in rows} == {"trajectory", "mutation", "task"} and all(r["latest"] for r in rows)
    csv_text = (tmp_path / "ratings.csv").read_text()
    assert csv_text.splitlines()[0].startswith("id,item,kind,rater,created_at,latest,solved,score")
    assert "polled forever" in csv_text

    # the report compares the judge with people
    report = build(run, human_review=human_review)
    kinds = {c.kind: c for c in report.human.comparisons}
    assert kinds["trajectory"].n == 1 and kinds["trajectory"].agreement == 1.0  # judge 4 < 7, people: not solved
    assert kinds["mutation"].n == 1 and kinds["mutation"].agreement == 1.0  # rejected, useful 2 < 3
    assert kinds["task"].n == 2
    html = render_html(report)
    assert 'id="review-agreement"' in html and "judge score &gt;= 7" in html
    assert "## Human review (4 ratings by alice)" in render_markdown(report)
    assert build(run).human is None  # the report package itself never reaches up into review/
    shown = subprocess.run([sys.executable, "-m", "adaptive_skill", "report", str(run), "--format", "md"],
                           cwd=REPO, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "## Human review (4 ratings by alice)" in shown.stdout, shown.stderr


def test_malformed_posts_are_refused_and_nothing_is_stored(run, serve):
    server = serve(run, "--rater", "bob")
    client = server.client
    path, page = open_item(client, "trajectory")
    token = token_of(page)
    bad = [
        ({"token": token, "solved": "no"}, 422, "score: missing"),
        ({"token": token, "solved": "maybe", "score": "3"}, 422, "solved: expected one of yes, no"),
        ({"token": token, "solved": "no", "score": "11"}, 422, "score: expected one of"),
        ({"token": token, "solved": "no", "score": "3", "admin": "1"}, 422, "unknown field(s): admin"),
        ({"token": token, "solved": "no", "score": "3", "what_went_wrong": "x" * 4001}, 422, "at most 4000"),
        ({"token": "forged", "solved": "no", "score": "3"}, 403, "expired"),
        ({"solved": "no", "score": "3"}, 403, "expired"),
    ]
    for form, status, message in bad:
        response = client.post(path, data=form)
        assert response.status_code == status and message in response.text, (form, response.text[:500])
    repeated = client.post(path, content=f"token={token}&solved=no&score=3&score=9",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert repeated.status_code == 422 and "more than once" in repeated.text
    assert client.post("/item/000000000000", data={"token": token, **GOOD["task"]}).status_code == 404
    # another origin, and another host name (DNS rebinding), are refused before anything is read
    evil = client.post(path, data={"token": token, **GOOD["trajectory"]}, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403
    assert client.get("/next", headers={"host": "evil.example"}).status_code == 421
    # a form with an error shows the page again with the answers given
    again = client.post(path, data={"token": token, "solved": "no", "what_went_wrong": "kept <b>polling</b>"})
    assert 'value="no" data-key="n" required checked' in again.text and "kept &lt;b&gt;polling&lt;/b&gt;" in again.text
    assert read_ratings(run) == []


def test_a_second_server_and_a_killed_one(run, serve):
    first = serve(run, "--rater", "carol")
    second = subprocess.run([sys.executable, "-m", "adaptive_skill", "review", str(run), "--port", "0"], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert second.returncode == 2
    assert second.stderr.strip().splitlines() == [
        f"error: {run}: another review server (pid {first.process.pid}) is serving this run at {first.url}; "
        "open that address, or stop it first"]
    path, page = open_item(first.client, "mutation")
    assert first.client.post(path, data={"token": token_of(page), **GOOD["mutation"]}).status_code == 303
    first.stop(signal.SIGKILL)  # no shutdown at all: the rating was committed before the page moved on
    assert [r.answers["useful"] for r in read_ratings(run)] == [2]
    again = serve(run, "--rater", "carol")  # the dead server's lock is not held: taken over, and said so
    assert any(f"pid {first.process.pid}, which is no longer running" in line for line in again.lines)
    assert "1 / 4 rated" in open_item(again.client)[1]


def test_a_run_still_going_is_read_only(tmp_path, serve):
    run = hand_run(tmp_path, finished=False)
    server = serve(run, "--rater", "dan")
    path, page = open_item(server.client, "trajectory")
    assert 'id="read-only"' in page and "<fieldset class=\"all\" disabled>" in page
    refused = server.client.post(path, data={"token": token_of(page), **GOOD["trajectory"]})
    assert refused.status_code == 409 and read_ratings(run) == []
    server.stop()
    allowed = serve(run, "--rater", "dan", "--allow-running")
    path, page = open_item(allowed.client, "trajectory")
    assert 'id="read-only"' not in page
    assert allowed.client.post(path, data={"token": token_of(page), **GOOD["trajectory"]}).status_code == 303
    assert len(read_ratings(run)) == 1


def test_the_socket_listens_before_its_address_is_printed():
    """A browser that opens the printed address at once waits in the backlog, never refused while uvicorn
    starts (a bound socket that is not yet listening refuses connections)."""
    from adaptive_skill.review.server import _bind

    sock = _bind(0)
    try:
        with socket.create_connection(sock.getsockname(), timeout=5):
            pass
    finally:
        sock.close()


def test_sign_in_and_bad_command_lines(run, tmp_path, serve):
    server = serve(run)
    client = server.client
    assert client.get("/").headers["location"] == "/login"
    assert client.get("/next").headers["location"] == "/"
    assert client.post("/login", data={"name": "<script>"}).status_code == 400
    assert client.post("/login", data={"name": "Eve Q."}).headers["location"] == "/next"
    assert 'rating as <strong id="rater">Eve Q.</strong>' in open_item(client)[1]
    server.stop()

    def review(*args):
        return subprocess.run([sys.executable, "-m", "adaptive_skill", "review", "--run", *map(str, args)], cwd=REPO,
                              capture_output=True, text=True, timeout=120)

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    for args, message in (((tmp_path / "nope",), "no such run directory"),
                          ((run, "--port", taken.getsockname()[1]), "is in use by another program"),
                          ((tmp_path,), "not a run directory"),
                          ((run, "--port", "70000"), "--port 70000: expected 0-65535"),
                          ((run, "--rater", "a\tb"), "--rater"),
                          ((run, "--out", tmp_path / "ratings.txt"), "--out needs a .csv or .json file name")):
        result = review(*args)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and message in result.stderr, result
    taken.close()
    with pytest.raises(ConfigError, match="wait_for_review needs human_verdicts: true"):
        load_config(None, ["review.wait_for_review=true"])


def test_forms_accept_exactly_their_questions():
    assert parse_answers("task", {"novel": "1", "feasible": "5", "token": "t"}) == \
        {"novel": 1, "feasible": 5, "comment": None}
    assert parse_answers("trajectory", {"solved": "yes", "score": "10", "what_went_wrong": "  "}) == \
        {"solved": True, "score": 10, "what_went_wrong": None}
    for kind, form in (("mutation", {"useful": "0", "novel": "3"}), ("task", {"novel": "3"}),
                       ("mutation", {"useful": "3", "novel": "3", "solved": "yes"})):
        with pytest.raises(FormError):
            parse_answers(kind, form)


def test_krippendorff_alpha_on_the_published_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 coders, 12 units, some missing
    units = [[1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4],
             [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3]]
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(units, "interval") == pytest.approx(0.849, abs=5e-4)
    assert krippendorff_alpha([[2, 2], [2, 2]]) is None  # no variation: alpha is undefined
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0) and spearman([1, 2], [1, 2]) is None


def test_agreement_between_raters_and_with_the_machine(run):
    items = collect(run)
    trajectory = next(i for i in items if i.kind == "trajectory")
    mutation = next(i for i in items if i.kind == "mutation")
    ratings = [Rating(trajectory.key, "trajectory", "a", {"solved": False, "score": 2}, 1.0, 1),
               Rating(trajectory.key, "trajectory", "b", {"solved": True, "score": 8}, 2.0, 2),
               Rating(trajectory.key, "trajectory", "b", {"solved": False, "score": 4}, 3.0, 3),  # b changed their mind
               Rating(mutation.key, "mutation", "a", {"useful": 4, "novel": 4}, 4.0, 4)]
    rows = {(r.kind, r.question): r for r in between_raters(items, ratings)}
    assert rows[("trajectory", "solved")].items == 1 and rows[("trajectory", "solved")].exact == 1.0
    assert rows[("trajectory", "score")].mean_difference == 2.0 and rows[("mutation", "useful")].items == 0
    summary, per_item = machine_vs_people(items, ratings, 7.0)
    found = {(c.kind, c.machine): c for c in summary}
    assert found[("trajectory", "judge score >= 7")].agreement == 1.0
    assert found[("trajectory", "judge score >= 7")].detail == "mean |judge - people| score 1"
    assert found[("mutation", "gate accepted")].agreement == 0.0  # rejected, but people found it useful
    assert [i.agree for i in per_item] == [True, False]


def test_people_verdicts_for_the_engine(run):
    solved = json.loads((run / "cycles" / "001" / "solve.json").read_text())
    results = [AttemptResult.from_dict(r) for r in solved["results"]]
    nobody = HumanVerdicts.load(run, 1, results, 7.0)
    assert nobody.verdicts == {} and nobody.unrated == ["t-loop"]  # t-ok was not escalated
    store = RatingStore.in_run(run)
    store.add(Rating(solve_key(1, "t-loop"), "trajectory", "ann", {"solved": False, "score": 2,
                                                                     "what_went_wrong": "looped"}))
    store.add(Rating(solve_key(1, "t-loop"), "trajectory", "ben", {"solved": False, "score": 5,
                                                                     "what_went_wrong": None}))
    people = HumanVerdicts.load(run, 1, results, 7.0)
    assert people.unrated == []
    item = {"task": "t-loop", "verdict": {"score": 4, "category": "other"}, "judge_error": None}
    verdict = people.replace(item)
    assert item["judge_verdict"] == {"score": 4, "category": "other"} and item["verdict"] is verdict
    assert verdict["score"] == 3.5 and verdict["source"] == "human" and verdict["raters"] == ["ann", "ben"]
    assert verdict["failure_reason"] == "ann: looped" and verdict["category"] == "other"
    assert people.replace({"task": "t-ok", "verdict": None}) is None


def test_the_store_survives_a_killed_writer(tmp_path):
    """A writer SIGKILLed right after its commit: the rating is there for the next reader."""
    code = ("import os, sys; from adaptive_skill.ratings import Rating, RatingStore\n"
            "RatingStore.in_run(sys.argv[1]).add(Rating('item', 'task', 'x', {'novel': 3, 'feasible': 2}))\n"
            "os.kill(os.getpid(), 9)\n")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=REPO, capture_output=True)
    assert result.returncode == -signal.SIGKILL
    assert [r.answers for r in read_ratings(tmp_path)] == [{"novel": 3, "feasible": 2}]
