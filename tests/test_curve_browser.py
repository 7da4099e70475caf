"""curve.html in a real headless Chromium (driven over the DevTools protocol like test_report_browser.py):
the page of a results.json written by the old run.py loads without an error and without a single
network request, both charts draw every estimate where its value says, the task matrix shows each
cell's pass fraction in colour, and a screenshot is taken.

Where chromium is not installed the test skips and says so; under CI (env CI set) it fails instead."""

import json
from pathlib import Path

import pytest
from test_report_browser import chromium, screenshot, visit  # noqa: F401 - the fixture that skips, or fails under CI

from adaptive_skill.curve import render

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "curve" / "results.json"

# per chart: the label of each lane and the x of its dot's centre, in page pixels
DOTS = """(() => [...document.querySelectorAll('svg.chart')].map(svg => [...svg.querySelectorAll('g.estimate')].map(g => {
  const r = g.querySelector('circle').getBoundingClientRect();
  return [g.querySelector('title').textContent.split(':')[0], r.x + r.width / 2, r.width];
})))()"""
BOXES = "[...document.querySelectorAll('svg.chart')].map(s => [s.getBoundingClientRect().width, " \
        "s.getBoundingClientRect().height])"
CELLS = "[...document.querySelectorAll('#matrix td.cell')].map(td => [td.innerText, getComputedStyle(td).backgroundColor])"


def test_the_curve_page_in_a_real_browser(chromium, tmp_path):  # noqa: F811
    render(json.loads(FIXTURE.read_text()), tmp_path)

    async def check(page):
        found = {"dots": await page.eval(DOTS), "boxes": await page.eval(BOXES), "cells": await page.eval(CELLS),
                 "title": await page.eval("document.querySelector('h1').innerText"),
                 "rows": await page.eval("document.querySelectorAll('#results tbody tr').length"),
                 "images": await page.eval("document.images.length")}
        await screenshot(page, tmp_path / "curve.png")
        return found

    found, events = visit(chromium, tmp_path, (tmp_path / "curve.html").as_uri(), check)

    errors = [e for e in events if e.get("method") == "Runtime.exceptionThrown"
              or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
    assert not errors, errors
    requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
    assert requests == [(tmp_path / "curve.html").as_uri()]  # the page itself, nothing else
    assert found["title"] == "Learning curve" and found["rows"] == 3 and found["images"] == 0
    assert len(found["boxes"]) == 2 and all(w > 400 and h > 100 for w, h in found["boxes"]), found["boxes"]
    rates, differences = found["dots"]
    assert [label for label, _, _ in rates] == ["seed (evo-0)", "evo-1", "expert"]
    assert [label for label, _, _ in differences] == ["evo-1", "expert"]
    assert all(width > 4 for _, _, width in rates + differences)  # drawn, not collapsed
    # where the values put them: 33% < 58% < 83% on one axis, and +25 < +50 points on the other
    seed_x, evo_x, expert_x = (x for _, x, _ in rates)
    assert seed_x < evo_x < expert_x
    assert (evo_x - seed_x) / (expert_x - seed_x) == pytest.approx(0.5, abs=0.02)
    assert differences[0][1] < differences[1][1]
    cells = found["cells"]
    assert [text for text, _ in cells[:3]] == ["1/2", "2/2", "2/2"] and len(cells) == 18
    colours = {text: colour for text, colour in cells}
    red, green = (tuple(int(v) for v in colours[k].removeprefix("rgb(").rstrip(")").split(",")) for k in ("0/2", "2/2"))
    assert red[0] > red[1] and green[1] > green[0]  # none passed: red; every repeat passed: green
    assert (tmp_path / "curve.png").stat().st_size > 10_000
