"""Every reason the run stops: convergence (the converge phase's verdict, phase_converge.py), max
cycles, run-wide budgets, wall time, a person's signal or STOP file. A stop leaves the cycle after
the current unit (Stop); the checkpoint lets --resume go on."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

# statuses a plain --resume continues; finished runs continue if limits allow
RESUMABLE = ("stopped", "model_unavailable")


class Stop(Exception):
    """Leave the cycle after the current unit; the checkpoint lets --resume go on."""


def stop_reason(engine) -> str | None:
    """Checked before each cycle."""
    if engine.state.converged:
        return "converged"
    if engine.state.cycle - 1 >= engine.config.max_cycles:
        return "max_cycles"
    return limit_reason(engine) or stopping_reason(engine)


def limit_reason(engine) -> str | None:
    """Run-wide budgets; checked before each cycle and after every phase."""
    from adaptive_skill.llm import BudgetExceeded

    try:
        engine.accounting.check_budget()
    except BudgetExceeded as exc:
        engine.run_dir.event("budget_exceeded", detail=str(exc))
        return "budget"
    limit = engine.config.limits.max_wall_time_sec
    if limit is not None and engine.elapsed() >= limit:
        return "wall_time"
    return None


def stopping_reason(engine) -> str | None:
    """A person asked to stop: a signal, or the STOP file."""
    if engine.stop_requested.is_set() or engine.run_dir.stop_requested():
        return "stopped"
    return None


def raise_if_stopping(engine) -> None:
    reason = limit_reason(engine) or stopping_reason(engine)
    if reason:
        raise Stop(reason)


@contextmanager
def budget_stops(engine):
    """An attempt that ran out of budget is not a result: stop the run, redo it on resume."""
    from adaptive_skill.llm import BudgetExceeded

    try:
        yield
    except BudgetExceeded as exc:
        engine.run_dir.event("budget_exceeded", detail=str(exc))
        raise Stop("budget") from None


@contextmanager
def signals(engine):
    """First SIGINT/SIGTERM: finish the current unit, save, stop. A second one aborts."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum, frame):
        if engine.stop_requested.is_set():
            raise KeyboardInterrupt
        engine.stop_requested.set()
        engine.log("stopping after the current unit (send the signal again to abort)")

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
