"""The judge with the scripted model: what it is shown (never labels), schema repair,
judge_error, the on-disk cache, parallel batches and the report."""

import json
import threading

import pytest
from observe_support import EVENTS, bash, sample_specs, trajectory

from adaptive_skill.config import JudgeConfig, LimitsConfig
from adaptive_skill.llm import Accounting, LLMConfigError
from adaptive_skill.llm.base import LLMResponse
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.observe import Judge, JudgeFailure, JudgeItem, Verdict, compress, judge_report

GOOD = {"score": 8, "category": "build", "outcome": "The Makefile was fixed and the tests pass.",
        "failure_reason": None}
BAD = {"score": 3, "category": "build", "outcome": "The build still fails.",
       "failure_reason": "calc.h is never found: the include path was not fixed."}
INSTRUCTION = "Fix /app/calc/Makefile so that `make test` passes."


def labelled_trajectory() -> dict:
    # Everything a verifier would know rides along in the file; none of it may reach the judge.
    return trajectory(sample_specs(), events=EVENTS,
                      metadata={"passed": True, "reward": 1.0, "verifier_output": "VERIFIER-SAYS-PASSED"},
                      passed=True, reward=1.0, tests_output="test_outputs.py::test_sum PASSED")


def test_verdict_and_what_the_judge_sees():
    llm = ScriptedLLM([{"content": GOOD}])
    data = labelled_trajectory()
    result = Judge(llm).judge(INSTRUCTION, data, task_id="calc")
    assert isinstance(result, Verdict)
    assert (result.score, result.category, result.outcome, result.failure_reason) == (
        8.0, "build", "The Makefile was fixed and the tests pass.", None)
    assert result.task_id == "calc" and len(result.key) == 64 and not result.cached
    assert result.to_dict()["status"] == "ok" and result.likely_solved(7.0)
    [request] = llm.requests
    shown = "\n".join(m["content"] for m in request.messages)
    assert INSTRUCTION in shown and compress(data, JudgeConfig().compression_budget_tokens).text in shown
    for secret in ("VERIFIER-SAYS-PASSED", "reward", "test_sum PASSED", "passed\": true"):
        assert secret not in shown
    assert request.schema == "Verdict" and "system-administration" in request.messages[0]["content"]


def test_categories_come_from_the_config_and_spelling_is_forgiven():
    config = JudgeConfig(categories=["build", "git", "system-administration"])
    llm = ScriptedLLM([{"content": {**GOOD, "category": "System Administration"}}])
    result = Judge(llm, config).judge(INSTRUCTION, trajectory([bash("ls")]))
    assert result.category == "system-administration"
    assert '"enum":["build","git","system-administration"]' in llm.requests[0].messages[0]["content"]


def test_schema_repair_invalid_then_valid():
    llm = ScriptedLLM([{"content": "I think it went well, maybe 8/10."}, {"content": GOOD}])
    judge = Judge(llm)
    # first question: prose, then a valid object after the repair prompt
    first = judge.judge(INSTRUCTION, trajectory([bash("ls")]))
    assert isinstance(first, Verdict) and len(llm.requests) == 2
    assert "That reply was not valid" in llm.requests[1].messages[-1]["content"]
    # second question: an unknown category is a schema error too; the repair shows what is allowed
    llm2 = ScriptedLLM([{"content": {**GOOD, "category": "cooking"}}, {"content": GOOD}])
    assert isinstance(Judge(llm2).judge(INSTRUCTION, trajectory([bash("ls")])), Verdict)
    assert "category" in llm2.requests[1].messages[-1]["content"]


def test_a_failing_score_needs_a_reason_and_a_passing_one_drops_it():
    llm = ScriptedLLM([{"content": {**BAD, "failure_reason": None}}, {"content": BAD},
                       {"content": {**GOOD, "failure_reason": "nothing really"}}])
    judge = Judge(llm)
    failing = judge.judge(INSTRUCTION, trajectory([bash("make", "error: x\n", 2)]))
    assert failing.failure_reason == BAD["failure_reason"] and len(llm.requests) == 2
    assert "failure_reason is required when score < 7" in llm.requests[1].messages[-1]["content"]
    passing = judge.judge(INSTRUCTION, trajectory([bash("make")]))
    assert passing.score == 8 and passing.failure_reason is None


def test_the_schema_the_model_sees_always_asks_for_a_reason():
    """A grammar built from the schema cannot say "required when score < 7": an embedded model left the
    reason out and each such verdict was a judge error. The schema asks for a non-empty string always;
    a failing score whose reason says nothing ("none") is still refused."""
    from adaptive_skill.observe.judge import reply_schema

    schema = reply_schema(["build"], 7).model_json_schema()
    assert "failure_reason" in schema["required"]
    assert schema["properties"]["failure_reason"]["type"] == "string"
    assert schema["properties"]["failure_reason"]["minLength"] == 1
    llm = ScriptedLLM([{"content": {**BAD, "failure_reason": "none"}}, {"content": BAD}])
    assert Judge(llm).judge(INSTRUCTION, trajectory([bash("make", "error: x\n", 2)])).failure_reason == BAD["failure_reason"]
    assert "failure_reason is required when score < 7" in llm.requests[1].messages[-1]["content"]


@pytest.mark.parametrize("replies, reason", [
    ([{"content": "no"}, {"content": {"score": 11}}], "invalid reply after repair"),
    ([{"error": "rate_limit"}], "gave up after retries"),
    ([{"error": "timeout"}], "Timeout"),
])
def test_judge_error_is_recorded_with_its_reason(replies, reason, caplog):
    result = Judge(ScriptedLLM(replies)).judge(INSTRUCTION, trajectory([bash("ls")]), task_id="t9")
    assert isinstance(result, JudgeFailure) and reason in result.reason
    assert result.to_dict() == {"reason": result.reason, "task_id": "t9", "key": result.key, "status": "judge_error"}
    assert "judge_error for t9" in caplog.text


def test_a_config_problem_is_not_a_judge_error():
    with pytest.raises(LLMConfigError):
        Judge(ScriptedLLM([{"error": "auth"}])).judge(INSTRUCTION, trajectory([bash("ls")]))


def test_cache_a_second_call_makes_no_request(tmp_path):
    data = trajectory(sample_specs(), events=EVENTS)
    first_llm = ScriptedLLM([{"content": BAD}])
    first = Judge(first_llm, cache_dir=tmp_path).judge(INSTRUCTION, data)
    assert not first.cached and len(first_llm.requests) == 1
    again_llm = ScriptedLLM([])  # any request would fail: the script is empty
    again = Judge(again_llm, cache_dir=tmp_path).judge(INSTRUCTION, data)
    assert again.cached and again_llm.requests == []
    assert (again.score, again.failure_reason, again.key) == (first.score, first.failure_reason, first.key)
    # the same trajectory as bare messages is another question (no spiral events, no status)...
    other_llm = ScriptedLLM([{"content": GOOD}])
    assert not Judge(other_llm, cache_dir=tmp_path).judge(INSTRUCTION, data["messages"]).cached
    # ...and so is another configuration of the judge
    strict_llm = ScriptedLLM([{"content": {**GOOD, "score": 10}}])
    assert not Judge(strict_llm, JudgeConfig(pass_threshold=9), tmp_path).judge(INSTRUCTION, data).cached
    assert len(strict_llm.requests) == 1


def test_failures_are_not_cached_and_damaged_entries_are_asked_again(tmp_path):
    data = trajectory([bash("ls")])
    failed = Judge(ScriptedLLM([{"error": "timeout"}]), cache_dir=tmp_path).judge(INSTRUCTION, data)
    assert isinstance(failed, JudgeFailure)
    retry = Judge(ScriptedLLM([{"content": GOOD}]), cache_dir=tmp_path).judge(INSTRUCTION, data)
    assert isinstance(retry, Verdict) and not retry.cached
    entry = tmp_path / retry.key[:2] / f"{retry.key}.json"
    entry.write_text("{torn")
    llm = ScriptedLLM([{"content": BAD}])
    assert Judge(llm, cache_dir=tmp_path).judge(INSTRUCTION, data).score == 3 and len(llm.requests) == 1


def test_judge_many_keeps_order_dedupes_and_reports_failures():
    # Rule mode: each request gets the reply whose pattern matches it, whatever thread asks first.
    script = [{"when": "task-alpha", "content": GOOD}, {"when": "task-beta", "content": BAD},
              {"when": "task-gamma", "content": "never valid"}, {"content": {**GOOD, "score": 10}}]
    llm = ScriptedLLM(script)
    items = [JudgeItem("task-alpha", trajectory([bash("make")]), "a"),
             ("task-beta", trajectory([bash("make", "error: no\n", 2)]), "b"),
             ("task-gamma", trajectory([bash("ls")]), "c"),
             JudgeItem("task-alpha", trajectory([bash("make")]), "a-again"),  # the same question as "a"
             ("task-delta", trajectory([bash("pwd")])),
             JudgeItem("task-epsilon", 42, "broken")]  # not a trajectory at all
    results = Judge(llm).judge_many(items, workers=3)
    assert [r.task_id for r in results] == ["a", "b", "c", "a-again", None, "broken"]
    assert [r.status for r in results] == ["ok", "ok", "judge_error", "ok", "ok", "judge_error"]
    assert [getattr(r, "score", None) for r in results] == [8.0, 3.0, None, 8.0, 10.0, None]
    assert "unreadable trajectory" in results[5].reason
    assert sum("task-alpha" in r.messages[-1]["content"] for r in llm.requests) == 1  # asked once
    report = judge_report(results, 7.0)
    assert report == {"n": 6, "judged": 4, "cached": 0, "likely_solved": 3, "mean_score": 7.25,
                      "by_category": {"build": 4},
                      "judge_errors": [{"task_id": "c", "reason": results[2].reason},
                                       {"task_id": "broken", "reason": results[5].reason}]}


class CountingLLM:
    """Answers every question, counting how many calls are inside the accounting's slots at once."""

    model = "counting"
    supports_tools = False

    def __init__(self, accounting: Accounting):
        self.accounting = accounting
        self.active = self.peak = self.calls = 0
        self.lock = threading.Lock()
        self.gate = threading.Event()

    def complete(self, messages, *, tools=None, task_id=None) -> LLMResponse:
        raise NotImplementedError

    def complete_json(self, messages, schema, *, task_id=None):
        with self.accounting.slot():
            with self.lock:
                self.active += 1
                self.calls += 1
                self.peak = max(self.peak, self.active)
                if self.calls >= 2:
                    self.gate.set()
            self.gate.wait(timeout=5)  # let calls pile up against the limit
            with self.lock:
                self.active -= 1
        return schema.model_validate(GOOD)


def test_parallel_judging_stays_under_the_llm_concurrency_limit():
    llm = CountingLLM(Accounting(LimitsConfig(max_concurrent_llm_calls=2)))
    items = [(f"task {i}", trajectory([bash(f"echo {i}")]), str(i)) for i in range(12)]
    results = Judge(llm).judge_many(items, workers=6)
    assert [r.task_id for r in results] == [str(i) for i in range(12)] and llm.calls == 12
    assert all(isinstance(r, Verdict) for r in results) and llm.peak <= 2


def test_a_view_computed_once_is_what_the_judge_reads_and_keys_on(monkeypatch):
    # The engine compresses each trajectory once (for the judge and the evolver's observations) and
    # passes the text in; the judge must show exactly that text and must not compress again.
    from adaptive_skill.observe import judge as judge_module

    data = labelled_trajectory()
    judge = Judge(ScriptedLLM([{"content": GOOD}]))
    view = judge.compress(data).text
    plain_key = judge.key(judge.messages(INSTRUCTION, data))
    calls = []
    real = judge_module.compress
    monkeypatch.setattr(judge_module, "compress", lambda *a, **k: calls.append(a) or real(*a, **k))
    [verdict] = judge.judge_many([JudgeItem(INSTRUCTION, data, "calc", view)])
    assert calls == [] and verdict.key == plain_key  # same question as before, so the cache still answers
    [request] = judge.llm.requests
    assert view in request.messages[1]["content"]
    [marked] = Judge(ScriptedLLM([{"content": GOOD}])).judge_many([JudgeItem(INSTRUCTION, data, "calc", "VIEW-X")])
    assert marked.key != plain_key  # the passed view, not a fresh compression, is what was asked


def test_a_failing_score_still_without_a_reason_after_the_repair_stands_with_its_outcome_as_reason():
    """Qwen-0.5B gave a score of 5 with "none" as its reason, and again after the repair: the score
    is the judgement, so it stands; the outcome sentence becomes the reason, marked as not stated."""
    from adaptive_skill.observe.judge import UNSTATED

    unreasoned = {**BAD, "failure_reason": "none"}
    # prose around the object and a raw newline in it, as a small model writes
    as_written = "Here it is: " + json.dumps({**BAD, "failure_reason": "None"}).replace(', "failure', ',\n"failure')
    verdict = Judge(ScriptedLLM([{"content": unreasoned}, {"content": as_written}])).judge(
        INSTRUCTION, trajectory([bash("make", "error: x\n", 2)]))
    assert isinstance(verdict, Verdict) and verdict.score == BAD["score"]
    assert verdict.failure_reason == UNSTATED + BAD["outcome"]
    # Anything else wrong with the reply is still a judge error.
    broken = {**unreasoned, "category": "cooking"}
    failure = Judge(ScriptedLLM([{"content": broken}, {"content": broken}])).judge(
        INSTRUCTION, trajectory([bash("make", "error: x\n", 2)]))
    assert isinstance(failure, JudgeFailure) and "invalid reply after repair" in failure.reason


def test_the_score_comes_after_the_outcome_and_reason_it_follows_from():
    """A model writes its JSON front to back: the schema (and so an embedded model's grammar) asks
    for the category, what happened and what went wrong before the score."""
    from adaptive_skill.config import JudgeConfig
    from adaptive_skill.observe.judge import SYSTEM_PROMPT, reply_schema

    config = JudgeConfig()
    schema = reply_schema(config.categories, config.pass_threshold).model_json_schema()
    assert list(schema["properties"]) == ["category", "outcome", "failure_reason", "score"]
    prompt = SYSTEM_PROMPT.format(categories=", ".join(config.categories), threshold=config.pass_threshold)
    order = [prompt.index(f"- {field}:") for field in ("category", "outcome", "failure_reason", "score")]
    assert order == sorted(order) and "in this order" in prompt


def test_the_longest_reply_the_schema_allows_fits_reply_max_chars():
    """The judge role's max_tokens must reach reply_max_chars for a reply never to be cut inside a
    string (3 judge errors of 46 with the 1.5B at 256 tokens): the longest valid reply is within it."""
    import json as _json

    from adaptive_skill.config import JudgeConfig
    from adaptive_skill.observe.judge import OUTCOME_MAX_CHARS, REASON_MAX_CHARS, reply_max_chars, reply_schema

    config = JudgeConfig()
    schema = reply_schema(config.categories, config.pass_threshold)
    longest = max(config.categories, key=len)
    reply = {"category": longest, "outcome": "o" * OUTCOME_MAX_CHARS, "failure_reason": "r" * REASON_MAX_CHARS,
             "score": 10.0}
    text = _json.dumps(reply)
    schema.model_validate_json(text)
    assert len(text) <= reply_max_chars(config.categories)
    with pytest.raises(ValueError):
        schema.model_validate({**reply, "outcome": "o" * (OUTCOME_MAX_CHARS + 1)})
