"""Human review end to end, in a real headless Chromium driven over the DevTools protocol: the real
engine runs in Docker with scripted models, its spiral monitor escalates the looping task, and with
`review.wait_for_review` the run stops before observing that batch. Alice rates the escalated
trajectory with the keyboard shortcuts and the proposed tasks (from the real `novelty` command)
with the mouse; `evolve --resume` then takes her verdict in place of the judge's and says so in
its events. Both mutations (one accepted, one rejected) are rated, Bob signs in as a second rater,
the summary shows their agreement, and the ratings appear in the export and in the report.

Where chromium is not installed the test skips and says so; under CI (env CI set) it fails instead."""

import asyncio
import base64
import itertools
import json
import re
import subprocess
import sys
from contextlib import contextmanager

import pytest
import yaml
from taskfactory import make_task
from test_report import AGENT, EVOLVER, JUDGE
from test_report_browser import Browser, chromium  # noqa: F401 - the fixture that skips, or fails under CI
from test_review_units import REPO, Server

from adaptive_skill.report import build, render_html
from adaptive_skill.review.human import human_review

pytestmark = pytest.mark.docker

PROPOSER = [  # two proposed tasks, in order
    {"content": {"title": "Rotate the app logs", "category": "system-administration", "difficulty": "medium",
                 "instruction": "Rotate /var/log/app/*.log daily, keep seven, and prove no line is lost.",
                 "rationale": "An SRE sees this weekly."}},
    {"content": {"title": "Repair a torn SQLite file", "category": "data-processing", "difficulty": "hard",
                 "instruction": "A crash left /data/app.db unreadable: recover every intact row into /data/fixed.db.",
                 "rationale": "A database administrator would."}},
]
# What each rater answers, per kind: keys are pressed for the trajectory, the rest is clicked.
ANSWERS = {
    "alice": {"trajectory": ["n", "2"], "mutation": {"useful": "4", "novel": "3"},
              "task": {"novel": "4", "feasible": "3"}},
    "bob": {"trajectory": ["n", "3"], "mutation": {"useful": "4", "novel": "2"},
            "task": {"novel": "2", "feasible": "3"}},
}


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory, docker_client, base_image):
    """Two cycles with the loop monitor escalating at once; the run stops before observing the batch
    that holds the escalated trajectory. Proposed tasks sit in RUN/proposals/."""
    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine
    from adaptive_skill.progress import Display

    root = tmp_path_factory.mktemp("review-run")
    suite = root / "suite"
    for index in range(6):
        make_task(suite, f"task-{index}")
    (suite / "task-5" / "instruction.md").write_text(
        "Wait for the service: keep polling /app/status.txt until it says ready, then write 42 to /app/answer.txt.")
    models = {}
    for role, script in (("agent", AGENT), ("judge", JUDGE), ("evolver", EVOLVER), ("proposer", PROPOSER)):
        (root / f"{role}.yaml").write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{root / f'{role}.yaml'}"}
    config = {"max_skills": 3, "batch_size": 2, "holdout_ratio": 0.34, "max_cycles": 2, "workers": 2, "seed": 1,
              "paths": {"workspace": str(REPO / "workspace"), "suite": str(suite), "runs_dir": str(root / "runs")},
              "models": models, "limits": {"max_steps": 8}, "spiral": {"ladder": ["escalate"]},
              "review": {"human_verdicts": True, "wait_for_review": True},
              # the scripted single evolver, no explore phase (not the learning setup's defaults)
              "evolver": {"mode": "single"}, "explore": {"passes": 0}, "skill_in_prompt_tokens": 0}
    (root / "cycle.yaml").write_text(yaml.safe_dump(config))
    engine = AdaptiveSkillEngine.start(load_config(root / "cycle.yaml"), run_id="reviewed",
                                       display=Display(mode="quiet"))
    assert engine.run() == "stopped"
    run = engine.run_dir.root
    proposed = subprocess.run([sys.executable, "-m", "adaptive_skill", "novelty", "keep services healthy", "--config",
                               str(root / "cycle.yaml"), "--max-iter", "2", "--threshold", "2.0", "--seed", "1",
                               "-q", "-o", str(run / "proposals" / "ideas.json")],
                              cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proposed.returncode == 0, proposed.stderr
    return root / "cycle.yaml", run


class Tab:
    """One page of the browser, over the browser's websocket (one flat session per page)."""

    _ids = itertools.count(1)  # command ids, unique on the shared websocket

    def __init__(self, ws, events: list, session: str | None):
        self.ws, self.events, self.session = ws, events, session

    async def send(self, method: str, check: bool = True, **params):
        ident = next(self._ids)
        message = {"id": ident, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        await self.ws.send_json(message)
        while True:
            reply = await asyncio.wait_for(self.ws.receive_json(), 60)
            if reply.get("id") == ident:
                assert not check or "error" not in reply, reply
                return reply.get("result", {})
            self.events.append(reply)

    async def go(self, action):
        """Do something that navigates, and wait until the next document has loaded (a new document
        has a new timeOrigin; while it is being replaced an evaluation may fail, and is tried again)."""
        before = await self.eval("performance.timeOrigin")
        await action
        for _ in range(1200):  # a bound, not a measurement: a page that never comes fails the test
            state = await self.send("Runtime.evaluate", check=False, returnByValue=True,
                                    expression="[performance.timeOrigin, document.readyState]")
            value = state.get("result", {}).get("value") if "exceptionDetails" not in state else None
            if value and value[0] != before and value[1] == "complete":
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the page did not change")

    async def eval(self, expression: str):
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    async def click(self, selector: str):
        """A real mouse click at the element's centre."""
        box = await self.eval(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                              "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                              "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            await self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    async def press(self, key: str):
        named = {"Enter": (13, "\r"), "Escape": (27, "")}
        code, text = named[key] if key in named else (ord(key.upper()), key)
        await self.send("Input.dispatchKeyEvent", type="keyDown", key=key, windowsVirtualKeyCode=code, text=text)
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code)

    async def type(self, text: str):
        await self.send("Input.insertText", text=text)


async def open_tab(ws, events: list, url: str, own_context: bool = False) -> Tab:
    """A new page; with own_context, in a fresh browser context (its own cookies: another person)."""
    browser = Tab(ws, events, None)
    extra = {"browserContextId": (await browser.send("Target.createBrowserContext"))["browserContextId"]} \
        if own_context else {}
    target = await browser.send("Target.createTarget", url="about:blank", **extra)
    attached = await browser.send("Target.attachToTarget", targetId=target["targetId"], flatten=True)
    tab = Tab(ws, events, attached["sessionId"])
    for domain in ("Page", "Runtime", "Log", "Network"):
        await tab.send(f"{domain}.enable")
    await tab.go(tab.send("Page.navigate", url=url))
    return tab


async def rate_queue(tab: Tab, rater: str, seen: list, shot=None) -> None:
    """Rate every item left in this rater's queue, as a person would, until the summary shows."""
    while await tab.eval("location.pathname") != "/summary":
        page = await tab.eval("location.href + '\\n' + document.body.innerText.slice(0, 2000)")
        assert await tab.eval("!!document.getElementById('item')"), page
        kind = await tab.eval("document.getElementById('item').dataset.kind")
        # blind: the form and the heading name no score, cycle, decision or source
        visible = await tab.eval("document.querySelector('header').innerText + document.querySelector('#item h2')"
                                 ".innerText + document.querySelector('.where').innerText + "
                                 "document.getElementById('rating').innerText")
        seen.append((kind, visible))
        answers = ANSWERS[rater][kind]
        if kind == "trajectory":  # keyboard only: solved, score, then the comment box
            for key in answers:
                await tab.press(key)
            await tab.press("c")
            await tab.type(f"{rater}: it kept polling instead of writing the answer")
            await tab.press("Escape")
            if shot:
                await shot(tab)
            await tab.go(tab.press("Enter"))
        else:
            for question, value in answers.items():
                await tab.click(f'label.option:has(input[name="{question}"][value="{value}"])')
            await tab.go(tab.click("#save"))


def test_rate_every_kind_in_a_real_browser_then_resume_with_the_verdict(stopped_run, chromium, tmp_path):  # noqa: F811
    config_path, run = stopped_run
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    waiting = [e for e in events if e["event"] == "review_wait"]
    assert len(waiting) == 1 and waiting[0]["tasks"] == ["task-5"] and events[-1]["status"] == "stopped"
    cycle = waiting[0]["cycle"]
    seen: list = []
    browser = Browser(chromium, tmp_path / "profile")
    try:
        # 1. Alice, before the run goes on: the escalated trajectory (keyboard) and the proposed tasks
        with running(run, "--rater", "alice") as server:
            first = asyncio.run(_session(browser.url, server.url, "alice", seen))
        assert first["kinds"].count("trajectory") == 1 and first["kinds"].count("task") == 2
        assert not (run / "cycles" / f"{cycle:03d}" / "observe.json").exists()  # nothing observed before her verdict

        # 2. the run goes on and takes Alice's verdict in place of the judge's
        from adaptive_skill.config import load_config
        from adaptive_skill.engine import AdaptiveSkillEngine
        from adaptive_skill.progress import Display

        resumed = AdaptiveSkillEngine.resume(load_config(config_path), run, display=Display(mode="quiet"))
        assert resumed.run() == "max_cycles"
        human = [e for e in resumed.run_dir.events() if e["event"] == "human_verdict"]
        assert [(e["cycle"], e["task"], e["score"], e["raters"]) for e in human] == [(cycle, "task-5", 2.0, ["alice"])]
        observed = json.loads((run / "cycles" / f"{cycle:03d}" / "observe.json").read_text())
        item = next(i for i in observed["items"] if i["task"] == "task-5")
        assert item["verdict"]["source"] == "human" and item["verdict"]["score"] == 2.0
        assert item["judge_verdict"]["score"] == 5  # the judge's own verdict, kept for the report
        shown = json.loads((run / "cycles" / f"{cycle:03d}" / "observations" / "task-5" / "verdict.json").read_text())
        assert shown["source"] == "human" and "kept polling" in shown["failure_reason"]

        # 3. both mutations now exist: Alice rates them; Bob signs in and rates everything
        with running(run, "--rater", "alice") as server:
            second = asyncio.run(_session(browser.url, server.url, "alice", seen))
            third = asyncio.run(_session(browser.url, server.url, "bob", seen, shot_to=tmp_path / "review.png"))
    finally:
        browser.close()

    for found in (first, second, third):
        assert not found["errors"], found["errors"]
        assert all(url.startswith(("http://127.0.0.1", "data:")) for url in found["requests"]), found["requests"]
    assert sorted(first["kinds"] + second["kinds"]) == ["mutation", "mutation", "task", "task", "trajectory"]
    assert sorted(third["kinds"]) == ["mutation", "mutation", "task", "task", "trajectory"]
    for kind, visible in seen:
        assert not re.search(r"judge|cycle|evo-\d|accepted|rejected|novelty|score", visible, re.I), (kind, visible)
    assert third["between"] >= 4 and "trajectory" in third["summary"] and "alice, bob" in third["summary"]
    assert (tmp_path / "review.png").stat().st_size > 10_000

    # the export has every rating, both raters and all three kinds
    for name in ("ratings.csv", "ratings.json"):
        done = subprocess.run([sys.executable, "-m", "adaptive_skill", "review", "--run", str(run),
                               "--out", str(tmp_path / name)], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "10 rating(s)" in done.stdout, done.stderr
    rows = json.loads((tmp_path / "ratings.json").read_text())
    assert {(r["rater"], r["kind"]) for r in rows} == {(p, k) for p in ANSWERS for k in ("trajectory", "mutation",
                                                                                          "task")}
    assert next(r for r in rows if r["rater"] == "bob" and r["kind"] == "trajectory")["score"] == 3
    assert (tmp_path / "ratings.csv").read_text().count("\n") == 11

    # the report: the judge and the gate against people
    report = build(run, human_review=human_review)
    found = {(c.kind, c.machine): c for c in report.human.comparisons}
    assert found[("trajectory", "judge score >= 7")].n == 1 and found[("trajectory", "judge score >= 7")].agreement == 1
    assert found[("mutation", "gate accepted")].n == 2 and found[("mutation", "gate accepted")].agreement == 0.5
    assert found[("task", "embedding novelty")].n == 2 and report.human.raters == ["alice", "bob"]
    html = render_html(report)
    assert 'id="review-agreement"' in html and 'href="#review"' in html


@contextmanager
def running(run, *args):
    server = Server(run, *args)
    try:
        yield server
    finally:
        server.stop()


async def _session(browser_url: str, server_url: str, rater: str, seen: list, shot_to=None) -> dict:
    """One person's visit: sign in (Alice comes in through --rater, Bob through the sign-in form in a
    browser context of his own), rate the queue, read the summary."""
    import aiohttp

    async with aiohttp.ClientSession() as client, client.ws_connect(browser_url, max_msg_size=0) as ws:
        events: list = []
        if rater == "alice":
            tab = await open_tab(ws, events, server_url)
        else:
            tab = await open_tab(ws, events, server_url + "login", own_context=True)
            await tab.eval("document.getElementById('name').value = ''")  # the --rater name is filled in
            await tab.click("#name")
            await tab.type(rater)
            await tab.go(tab.press("Enter"))
        assert await tab.eval("document.getElementById('rater').innerText") == rater
        before = len(seen)

        async def shot(page):
            data = await page.send("Page.captureScreenshot", format="png")
            shot_to.write_bytes(base64.b64decode(data["data"]))

        await rate_queue(tab, rater, seen, shot if shot_to else None)
        summary = await tab.eval("document.querySelector('main').innerText")
        between = await tab.eval("document.querySelectorAll('#between tbody tr').length")
        errors = [e for e in events if e.get("method") == "Runtime.exceptionThrown"
                  or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
        requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
        return {"kinds": [kind for kind, _ in seen[before:]], "summary": summary, "between": between,
                "errors": errors, "requests": requests}
