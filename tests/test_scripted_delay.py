"""delay_sec on a scripted reply: the call sleeps that long inside its concurrency slot, so scripted
models can imitate LLM latency (benchmarks/perf/bench_throughput.py). No upper bound on time is
asserted: overlap and slots are checked with a barrier and a counter instead of a clock."""

import threading
import time
from types import SimpleNamespace

import pytest

from adaptive_skill.config import LimitsConfig
from adaptive_skill.llm import LLMConfigError
from adaptive_skill.llm import scripted as scripted_module
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.scripted import ScriptedLLM

ASK = [{"role": "user", "content": "hi"}]


def fake_sleep(monkeypatch, sleep):
    """Replace time.sleep for the scripted module only (other threads keep the real one)."""
    monkeypatch.setattr(scripted_module, "time", SimpleNamespace(sleep=sleep))


def test_a_reply_waits_its_delay_and_others_do_not(monkeypatch):
    slept = []
    fake_sleep(monkeypatch, slept.append)
    llm = ScriptedLLM([{"content": "slow", "delay_sec": 1.5}, {"content": "fast"}])
    assert [llm.complete(ASK).content for _ in range(2)] == ["slow", "fast"]
    assert slept == [1.5]


def test_negative_delay_is_rejected(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("- content: x\n  delay_sec: -1\n")
    with pytest.raises(LLMConfigError, match="delay_sec"):
        ScriptedLLM(path)


def run_two_calls(llm):
    errors = []

    def call():
        try:
            llm.complete(ASK)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return errors


def test_concurrent_delays_overlap(monkeypatch):
    # Both calls must be asleep at the same time: the script's lock is not held while waiting.
    barrier = threading.Barrier(2, timeout=10)
    fake_sleep(monkeypatch, lambda seconds: barrier.wait())
    llm = ScriptedLLM([{"when": "hi", "content": "x", "delay_sec": 1}])
    assert run_two_calls(llm) == []


def test_the_delay_holds_a_concurrency_slot(monkeypatch):
    active, peak, lock = [0], [0], threading.Lock()

    def sleep(seconds):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1

    fake_sleep(monkeypatch, sleep)
    accounting = Accounting(LimitsConfig(max_concurrent_llm_calls=1))
    llm = ScriptedLLM([{"when": "hi", "content": "x", "delay_sec": 1}], accounting)
    assert run_two_calls(llm) == []
    assert peak[0] == 1 and len(llm.requests) == 2
