"""Close every open sandbox when the process ends, however it ends.

This is the one process-wide object in the sandbox package, on purpose: atexit hooks and signal
handlers are process-wide, so the list of what they must clean up has to be too.

- normal exit: an atexit hook closes what is still open.
- SIGINT (Ctrl-C), SIGTERM, SIGHUP: all open sandboxes are closed at once, in a helper thread
  (worker threads stuck in a sandbox then fail fast instead of holding the exit back), and the
  main thread gets KeyboardInterrupt / SystemExit(128+signal) so `with` blocks and finally run.
  Handlers are only installed over the defaults, never over a handler the application set, and
  only from the main thread (a Python rule): see install_signal_handlers.
- SIGKILL cannot be caught: `adaptive-skill sandbox prune` removes what it leaves behind.
"""

from __future__ import annotations

import atexit
import signal
import threading
from typing import Protocol


class Closable(Protocol):
    def close(self) -> None: ...


class _OpenSandboxes:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[int, Closable] = {}
        self._atexit_hooked = False
        self._signals_hooked = False

    def add(self, sandbox: Closable) -> None:
        with self._lock:
            self._open[id(sandbox)] = sandbox
            if not self._atexit_hooked:
                self._atexit_hooked = True
                atexit.register(self.close_all)
        self.install_signal_handlers()

    def install_signal_handlers(self) -> bool:
        """Hook SIGINT/SIGTERM/SIGHUP (where still at their defaults); True once installed.

        Python lets only the main thread do this, so it is tried whenever a sandbox is created or
        the engine connected; a program that opens sandboxes only in worker threads should call it
        once from its main thread."""
        if threading.current_thread() is not threading.main_thread():
            return self._signals_hooked
        with self._lock:
            if not self._signals_hooked:
                self._signals_hooked = True
                _install_signal_handlers(self)
        return True

    def discard(self, sandbox: Closable) -> None:
        with self._lock:
            self._open.pop(id(sandbox), None)

    def close_all(self) -> None:
        with self._lock:
            sandboxes = list(self._open.values())
        # In parallel: removing a container takes a few hundred ms each.
        threads = [threading.Thread(target=_close_quietly, args=(s,)) for s in sandboxes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def _close_quietly(sandbox: Closable) -> None:
    try:
        sandbox.close()
    except Exception:  # the process is ending; one failure must not stop the other cleanups
        pass


def _install_signal_handlers(registry: _OpenSandboxes) -> None:
    def on_signal(signum: int, frame: object) -> None:
        threading.Thread(target=registry.close_all, name="adaptive-skill-sandbox-cleanup").start()
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)

    for sig, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL),
                         (signal.SIGHUP, signal.SIG_DFL)):
        if signal.getsignal(sig) is default:
            signal.signal(sig, on_signal)


open_sandboxes = _OpenSandboxes()
