"""`adaptive-skill novelty-experiment`: resuming from stored records, an interrupted run, the tables
and plots of a scripted run, bad input, the missing-matplotlib message, and one offline run with
the embedded model.

The embedded-model test skips only where llama_cpp is not importable and CI is unset; under CI it
fails, so a broken [local] install cannot pass unnoticed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adaptive_skill.config import EmbedderConfig, JudgeConfig, NoveltyConfig
from adaptive_skill.embed import make_embedder
from adaptive_skill.errors import UserError
from adaptive_skill.llm import Accounting
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.novelty.experiments.problems import Problem, load_problems
from adaptive_skill.novelty.experiments.runner import ExperimentRunner, Plan
from adaptive_skill.novelty.experiments.store import RecordStore, Unit
from adaptive_skill.progress import Display

REPO = Path(__file__).resolve().parents[1]
PROBLEMS = [Problem("transport", "Improve urban transportation"), Problem("backups", "Never lose the team's data")]


def reply(title, instruction, category, when=None):
    content = {"title": title, "instruction": instruction, "category": category, "difficulty": "medium",
               "rationale": "This perspective would ask for it."}
    return {"content": content, "cost": 0.001, "usage": {"prompt_tokens": 90, "completion_tokens": 10},
            **({"when": when} if when else {})}


# Rule mode: the reply depends on the perspective in the prompt, so each condition has its own tasks.
RULES = [
    reply("Bus timetable", "Improve urban transportation by writing a bus timetable script.", "scripting",
          when="You are a task designer"),
    reply("Cuneiform numerals", "Write a Rust parser that reads Babylonian cuneiform numerals from glyphs.txt.",
          "text-processing", when="knowledge domain"),
    reply("Telescope frames", "Compress the FITS telescope frames in ./frames losslessly and verify checksums.",
          "file-operations"),
]


def runner(tmp_path, llm, conditions=("direct", "expert-only"), repeats=2):
    plan = Plan(PROBLEMS[:1], list(conditions), repeats, NoveltyConfig(max_iterations=2))
    accounting = llm.accounting
    return ExperimentRunner(plan, RecordStore(tmp_path), llm, make_embedder(EmbedderConfig()), accounting,
                            JudgeConfig().categories, Display("quiet"))


def test_records_are_stored_per_unit_and_skipped_on_a_rerun(tmp_path):
    llm = ScriptedLLM(RULES, Accounting(), role="proposer")
    first = runner(tmp_path, llm).run()
    assert (first.ran, first.skipped, first.stopped) == (4, 0, None) and len(llm.requests) == 8
    assert first.cost == pytest.approx(0.008)
    record = json.loads((tmp_path / "runs/transport/expert-only/repeat-1.json").read_text())
    assert record["seed"] == 1 and record["cost"]["calls"] == 2 and len(record["vectors"]) == 2
    assert [it["perspective"]["kind"] for it in record["run"]["iterations"]] == ["expert", "expert"]
    assert record["run"]["stop"]["reason"] == "max_iterations"  # the experiment's stop rule never fires

    again = ScriptedLLM(RULES, Accounting(), role="proposer")
    second = runner(tmp_path, again).run()
    assert (second.ran, second.skipped) == (0, 4) and again.requests == []

    (tmp_path / "runs/transport/direct/repeat-0.json").unlink()
    (tmp_path / "runs/transport/expert-only/repeat-0.json").write_text("{torn")
    third = runner(tmp_path, again).run()
    assert (third.ran, third.skipped) == (2, 2)
    assert third.labels == ["transport/direct/0", "transport/expert-only/0"]


class InterruptingLLM(ScriptedLLM):
    """Ctrl-C arrives during the third model call."""

    def complete_json(self, messages, schema, **kwargs):
        if len(self.requests) == 2:
            raise KeyboardInterrupt
        return super().complete_json(messages, schema, **kwargs)


def test_an_interrupted_run_is_not_stored_and_ends_the_experiment(tmp_path):
    llm = InterruptingLLM(RULES, Accounting(), role="proposer")
    outcome = runner(tmp_path, llm).run()
    assert outcome.stopped == "interrupted" and outcome.ran == 1
    store = RecordStore(tmp_path)
    assert store.has(Unit("transport", "direct", 0)) and not store.has(Unit("transport", "direct", 1))


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout, env={**os.environ, "TERM": "dumb"})


@pytest.fixture
def files(tmp_path):
    problems = tmp_path / "problems.yaml"
    problems.write_text(yaml.safe_dump({"problems": [{"id": p.id, "text": p.text} for p in PROBLEMS]}))
    script = tmp_path / "rules.yaml"
    script.write_text(yaml.safe_dump(RULES))
    return problems, f"scripted/{script}"


def test_a_scripted_run_writes_tables_and_plots_and_resumes(tmp_path, files):
    problems, model = files
    out = tmp_path / "exp"
    result = cli("novelty-experiment", "--problems", problems, "--model", model, "--repeats", 2, "--max-iter", 3,
                 "-o", out)
    assert result.returncode == 0, result.stderr
    analysis = json.loads((out / "analysis.json").read_text())
    spent = "$0.0600 (6,000 tokens)"  # 60 calls of 100 tokens each
    assert f"20 run(s) done, 0 done before; 0 failed iteration(s); spent this session {spent}" in result.stdout
    assert f"spent {spent}." in (out / "summary.md").read_text()
    assert "[20/20] ok backups/random-perspective/1" in result.stderr  # plain progress, with the cost

    analysis = json.loads((out / "analysis.json").read_text())
    assert analysis["records"] == analysis["planned"] == 20 and analysis["cost_usd"] == pytest.approx(0.06)
    summary = analysis["summary"]
    # direct always answers the same near-seed task: one cluster, no switches, nothing to jump to
    assert summary["direct"]["flexibility"]["mean"] == 0 and summary["direct"]["diversity"]["mean"] == 0
    assert summary["direct"]["runs"] == 4 and summary["direct"]["novelty_distribution"]["count"] == 12
    # random-perspective mixes the domain and expert replies, so it switches categories
    assert summary["random-perspective"]["label_flexibility"]["mean"] > 0
    assert set(analysis["comparisons"]) == {"expert-only", "attribute-only", "full-pipeline", "random-perspective"}
    flexible = analysis["comparisons"]["random-perspective"]["label_flexibility"]
    assert flexible["mean"] > 0 and set(flexible) == {"mean", "low", "high", "n", "excludes_zero"}
    assert len(analysis["runs"]) == 20

    assert (out / "runs.csv").read_text().splitlines()[0].startswith("problem,condition,repeat,seed,proposals")
    assert len((out / "summary.csv").read_text().splitlines()) == 1 + 5 * 9
    markdown = (out / "summary.md").read_text()
    assert "| metric | direct | expert-only | attribute-only | full-pipeline | random-perspective |" in markdown
    assert "## Difference from `direct`" in markdown
    for name in ("novelty_per_iteration", "novelty_distribution", "embeddings_pca", "flexibility"):
        assert (out / "plots" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (out / "summary.html").read_text()
    assert page.count("data:image/png;base64,") == 4 and "<table>" in page

    again = cli("novelty-experiment", "--problems", problems, "--model", model, "--repeats", 2, "--max-iter", 3,
                "--conditions", "direct,full-pipeline", "-o", out, "-q", "--no-plots")
    assert again.returncode == 0, again.stderr
    assert "0 run(s) done, 8 done before" in again.stdout and again.stderr == ""
    assert json.loads((out / "analysis.json").read_text())["conditions"] == ["direct", "full-pipeline"]


@pytest.mark.parametrize("args, message", [
    (["--conditions", "direct,telepathy"], "error: --conditions: unknown condition telepathy: choose from direct,"),
    (["--repeats", "0"], "error: --repeats: must be at least 1 (got 0)"),
    (["--max-iter", "0"], "error: --max-iter: Input should be greater than or equal to 1"),
])
def test_bad_values_end_in_one_line(tmp_path, files, args, message):
    problems, model = files
    result = cli("novelty-experiment", "--problems", problems, "--model", model, "-o", tmp_path / "x", *args)
    assert result.returncode == 2 and result.stderr.startswith(message), result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_problem_files(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text("- Improve urban transportation\n- '  Find   the bug  '\n")
    assert load_problems(plain) == [Problem("p1", "Improve urban transportation"), Problem("p2", "Find the bug")]
    for text, message in [("[]", "non-empty list"), ("- {id: a, text: x}\n- {id: a, text: y}\n", "'a' appears twice"),
                          ("- {id: ../up, text: x}\n", "may hold only"), ("- {text: ''}\n", "the text is empty")]:
        plain.write_text(text)
        with pytest.raises(UserError, match=message):
            load_problems(plain)
    with pytest.raises(UserError, match="no such problems file"):
        load_problems(tmp_path / "missing.yaml")


def test_plots_without_matplotlib_name_the_extra(monkeypatch):
    from adaptive_skill.novelty.experiments import plots

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    with pytest.raises(UserError, match=r"pip install 'adaptive-skill\[experiments\]'") as caught:
        plots.require_matplotlib()
    assert "\n" not in str(caught.value)


def test_embedded_model_offline(tmp_path, embedded_model):
    problems = tmp_path / "problems.yaml"
    problems.write_text(yaml.safe_dump([PROBLEMS[0].text]))
    out = tmp_path / "exp"
    # 1 problem x 5 conditions x 1 repeat x 2 iterations (CI time); max_tokens bounds a rambling reply.
    result = cli("novelty-experiment", "--problems", problems, "--model", embedded_model,
                 "--embedding-model", "lexical", "--temperature", 0, "--repeats", 1, "--max-iter", 2,
                 "--set", "models.proposer.max_tokens=300", "-o", out, "-q", timeout=900)
    assert result.returncode == 0, result.stderr
    analysis = json.loads((out / "analysis.json").read_text())
    assert analysis["model"] == "local/smollm2-135m" and analysis["embedder"] == "lexical-512"
    assert analysis["records"] == 5 and len(analysis["runs"]) == 5
    # The 135M model's content means little, but the pipeline must carry real tasks through.
    assert sum(row["proposals"] for row in analysis["runs"]) > 0
    assert all(0.0 <= s <= 2.0 for row in analysis["runs"] for s in row["scores"])
    assert all((out / "plots" / f"{name}.png").exists() for name in ("novelty_per_iteration", "embeddings_pca"))
    # a free model's runs spent tokens, not "$0.0000": the tokens are what the reader is shown
    assert analysis["cost_usd"] == 0 and analysis["tokens"] > 0
    assert f"spent {analysis['tokens']:,} tokens (no cost: a free model)." in (out / "summary.md").read_text()
    assert "| metric | direct |" in (out / "summary.md").read_text()
