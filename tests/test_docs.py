"""The README's figures come from the docs, and its links and the docs map lead somewhere (issue 53).

Each figure the README states with a unit, a sign or an interval ("15 min 17 s", "5.5 GB", "57.5%",
"+16.25", "[+7.5, +27.5]") must appear in a page under docs/ or a page the README links to: a figure
changed in the README alone fails here. Every relative link of README.md and docs/README.md must name
a file that exists, and an anchor a heading of that page."""

from __future__ import annotations

import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"

NUMBER = r"\d+(?:[.,]\d+)*"
SIGN = r"(?<![\w.\]\-])[+-]"  # a sign only where no word runs into it: not the 0 of evo-0
UNIT = r"(?: h(?: \d+ min)?(?: \d+ s)?\b| min(?: \d+ s)?\b| minutes\b| s\b| ms\b| ?[GMK]i?B\b|%| points\b)"
# A number with a unit ("15 min 17 s", "2 h 37 min", "5.5 GB", "57.5%", "+16.25 points"), an
# interval ("[+7.5, +27.5]", "[0.28, 0.90]"), or a signed number on its own ("+0.00").
FIGURE = re.compile(rf"(?:{SIGN})?(?<![\w.]){NUMBER}{UNIT}"
                    rf"|\[[+-]?{NUMBER}%?, [+-]?{NUMBER}%?\]"
                    rf"|{SIGN}{NUMBER}(?![\w.])")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def normal(text: str) -> str:
    """Text as a reader sees it: no emphasis, every run of white space (line breaks too) one space."""
    return re.sub(r"\s+", " ", text.replace("*", "").replace("~", ""))


def figures(text: str) -> list[str]:
    return sorted(set(FIGURE.findall(normal(text))))


def linked_pages(page: Path) -> list[Path]:
    """The Markdown files a page links to by a relative path."""
    found = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        path = target.split("#")[0]
        if path and "://" not in path and path.endswith(".md") and (page.parent / path).is_file():
            found.append((page.parent / path).resolve())
    return found


def test_the_figure_pattern_finds_what_it_must():
    text = ("the run 15 min\n17 s, install 10 min 55 s, 2 h 37 min; about 5.5 GB, ~1.1 GB; 57.5% against 41%: "
            "+16.25 points paired [+7.5, +27.5], share 0.57 [0.28, 0.90], LLR +0.00; not evo-0, 127.0.0.1, "
            "part1..22, max_skills 5 or 2-core")
    assert figures(text) == sorted({"15 min 17 s", "10 min 55 s", "2 h 37 min", "5.5 GB", "1.1 GB", "57.5%", "41%",
                                    "+16.25 points", "[+7.5, +27.5]", "[0.28, 0.90]", "+0.00"})


def test_the_readme_states_its_headline_figures():
    """So that the check below is not vacuous: the README still carries the figures it must."""
    found = figures(README.read_text(encoding="utf-8"))
    for figure in ("[-1.14, +7.20]", "17 min 50 s", "7 min 20 s", "5.1 GB"):
        assert figure in found, figure


def test_every_readme_figure_is_in_the_docs():
    sources = sorted(DOCS.rglob("*.md")) + linked_pages(README)
    corpus = "\n".join(normal(page.read_text(encoding="utf-8")) for page in sources)
    missing = [figure for figure in figures(README.read_text(encoding="utf-8")) if figure not in corpus]
    assert not missing, f"README figures no page under docs/ (or linked) states: {missing}"


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def broken_links(pages, name) -> list[str]:
    """Relative links of `pages` whose file or heading does not exist, each named by `name(page)`."""
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{name(page)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{name(page)}: {target} (no such heading)")
    return broken


def test_relative_links_of_the_readme_and_the_docs_map_lead_somewhere():
    broken = broken_links((README, DOCS / "README.md"), lambda page: page.name)
    assert not broken, broken


def test_the_docs_map_names_every_page():
    """Every page under docs/, the measurement logs of docs/log/ too."""
    targets = LINK.findall((DOCS / "README.md").read_text(encoding="utf-8"))
    listed = {(DOCS / target.split("#")[0]).resolve() for target in targets}
    pages = {page.resolve() for page in DOCS.rglob("*.md")} - {(DOCS / "README.md").resolve()}
    missing = sorted(str(page.relative_to(DOCS)) for page in pages - listed)
    assert not missing, f"docs/README.md does not list: {missing}"


def test_relative_links_of_every_docs_page_lead_somewhere():
    """Pages link to each other's sections, and sections move (issue 53: the logs went to docs/log/)."""
    broken = broken_links(sorted(DOCS.rglob("*.md")), lambda page: str(page.relative_to(DOCS)))
    assert not broken, broken


def _command(text: str) -> str:
    """A shell command with its backslash line continuations joined, white space collapsed."""
    return " ".join(text.replace("\\\n", " ").split())


def test_the_readme_test_command_is_what_ci_runs():
    """The README shows the test command over several lines; joined, it is .ci/run's, step for step."""
    readme = README.read_text(encoding="utf-8")
    blocks = re.findall(r"(?m)^    apt-get update \\\n(?:    .*\\\n)*    .*$", readme)
    tests = [_command(block) for block in blocks if block.rstrip().endswith(".venv/bin/pytest")]
    assert len(tests) == 1, blocks
    ci = [_command(line) for line in (REPO / ".ci" / "run").read_text().splitlines() if line.startswith("apt-get")]
    assert tests == ci


def _results_index():
    import importlib.util

    path = REPO / "benchmarks" / "evolution" / "results_index.py"
    spec = importlib.util.spec_from_file_location("results_index", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_records_table_of_results_md_is_what_the_kept_records_say():
    """docs/results.md's table of kept runs is written from benchmarks/evolution/results/curve-*/ by
    results_index.py: a figure typed into the table, or a record added without re-writing it, fails."""
    index = _results_index()
    page = (DOCS / "results.md").read_text(encoding="utf-8")
    block = index.table()
    records = sorted(p.name for p in (REPO / "benchmarks/evolution/results").glob("curve-*"))
    assert records and all(f"[{name}]" in block for name in records)
    assert index.splice(page, block) == page, "run: python benchmarks/evolution/results_index.py"
    typed = page.replace("| 15/40, 18/40 |", "| 16/40, 18/40 |", 1)
    assert typed != page and index.splice(typed, block) != typed
    assert index.main(["--check"]) == 0


def test_pooling_records_reproduces_a_single_records_interval_and_refuses_one_split_twice():
    """results_index.py --pool: one record pooled alone gives the interval its curve printed (the same
    bootstrap over the same differences); two records of one split are refused as not independent."""
    import pytest

    index = _results_index()
    results = json.loads((REPO / "benchmarks/evolution/results/curve-26/results.json").read_text())
    alone = index.pooled(["curve-26"], seed=results["bootstrap"]["seed"])
    assert alone["vs_seed"] == results["curve"][1]["vs_seed"] and alone["tasks"] == alone["distinct_tasks"] == 40
    with pytest.raises(ValueError, match="not independent"):
        index.pooled(["curve-25", "curve-26"])


def test_the_gate_recomputed_from_a_record_gives_each_gates_own_llr():
    """results_index.gate_on: the engine's gate decision recomputed from a kept record's seed and tag
    scores gives the LLR each run's gate printed (runs 25-27); a tag worse on every task is rejected,
    and a record short of the gate's rounds says so."""
    index = _results_index()
    for name, want in (("curve-25", "+4.90"), ("curve-26", "+6.30"), ("curve-27", "+10.80")):
        results = json.loads((REPO / f"benchmarks/evolution/results/{name}/results.json").read_text())
        seed, tag = results["seed"]["scores"], results["curve"][1]["scores"]
        assert index.gate_on(seed, tag, results["settings"]) == f"the gate would have accepted it (LLR {want})"
        assert results["cycles"][0]["reason"].startswith(f"LLR {want}")
        assert "rejected" in index.gate_on(tag, seed, results["settings"])
        short = {task: scores[:1] for task, scores in tag.items()}
        assert index.gate_on(seed, short, results["settings"]) == "fewer than the gate's 2 rounds"


def test_two_workspaces_versus_each_other_pair_only_on_the_same_rounds():
    """results_index.py --versus: a record's workspace against its own seed gives the interval its
    curve printed; the same split on other rounds (the gate's against fresh seeds) is refused as
    not paired, and a label the record lacks names the ones it has."""
    import pytest

    index = _results_index()
    results = json.loads((REPO / "benchmarks/evolution/results/curve-27-fresh/results.json").read_text())
    got = index.versus("curve-27-fresh:evo1-27", "curve-27-fresh:seed", seed=results["bootstrap"]["seed"])
    assert got["difference"] == results["workspaces"][0]["vs_seed"] and got["tasks"] == 40
    assert got["worse"] == ["git-count-commits"] and len(got["better"]) == 6
    with pytest.raises(ValueError, match="differ in first_round"):
        index.versus("curve-27-fresh:evo1-27", "curve-27:seed")
    with pytest.raises(ValueError, match="it has: seed, evo1-27"):
        index.versus("curve-27-fresh:evo-2", "curve-27-fresh:seed")
    assert index.main(["--versus", "curve-27-fresh:evo1-27", "curve-26:seed"]) == 2


def test_a_rejected_candidate_pairs_through_its_gate(tmp_path):
    """results_index.py --versus RECORD:gate: the candidate a gate rejected, read from gate.json, gives
    the gate's own figures against the seed (run 28: 35/80 against 38/80, 3 better, 7 worse); a
    gate.json whose baseline is not the record's seed is refused, as its rounds would not pair."""
    import shutil

    import pytest

    index = _results_index()
    got = index.versus("curve-28:gate", "curve-28:seed")
    gate = json.loads((REPO / "benchmarks/evolution/results/curve-28/gate.json").read_text())
    assert got["passes"]["curve-28:gate"] == "18/40, 17/40" and got["passes"]["curve-28:seed"] == "20/40, 18/40"
    assert round(got["difference"]["mean"], 4) == round(gate["mutated_mean"] - gate["baseline_mean"], 4) == -0.0375
    assert (len(got["better"]), len(got["worse"])) == (3, 7)
    records = tmp_path / "records"
    shutil.copytree(REPO / "benchmarks/evolution/results/curve-28", records / "curve-28")
    task = next(iter(gate["round_scores"][0]))
    gate["round_scores"][0][task][0] = 1.0 - gate["round_scores"][0][task][0]
    (records / "curve-28" / "gate.json").write_text(json.dumps(gate))
    with pytest.raises(ValueError, match="do not pair"):
        index.versus("curve-28:gate", "curve-28:seed", records=records)
    with pytest.raises(ValueError, match="no gate.json"):
        index.versus("curve-27-fresh:gate", "curve-27-fresh:seed")
