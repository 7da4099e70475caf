"""Verification that the agent cannot forge.

After the agent stops: every process it left behind is killed, /tests and /logs/verifier are wiped
and recreated (and checked to be empty, real directories; /logs/agent is the agent's own and stays,
unread), the task's tests are copied in fresh, and the verdict comes from what the tests produced in
THIS run. The housekeeping runs as root; the tests run as the environment's user (the image's USER,
or the task's verifier.user), as Harbor runs them, in a fresh process, never the agent's shell;
except a TB1 task with run_tests_in_same_shell, whose tests run in the agent's own shell (as TB1
types them into the agent's session): that shell is spared by the kill, its children are not.

Verdicts:
  Harbor      reward.json first, then reward.txt (see reward_from_json for the shapes accepted);
              passed when the reward is at least 1.
  TB1         the parser_name parser's verdict (pytest unless the task names another; parsers.py) on
              the tests' output; the exit status is discarded.
"""

from __future__ import annotations

import json
import math
import shlex
import time

from adaptive_skill.harness.results import VerifyResult
from adaptive_skill.protocols import Sandbox
from adaptive_skill.tasks.model import Task
from adaptive_skill.tasks.parsers import DEFAULT_PARSER, PARSERS

TESTS_DIR = "/tests"
LOGS_DIR = "/logs/verifier"

# Kill everything but PID 1, this shell, (when PID 1 is an init such as docker-init/tini) the
# container's own first command, and `spare` (the agent's shell, for run_tests_in_same_shell; 0 for
# none): a process the agent left behind could otherwise write the reward file after the wipe, or
# print into the agent's shell while the tests run there. Pure bash over /proc (no procps needed).
_KILL_LEFTOVERS = r"""
self=$$
init=$(cat /proc/1/comm 2>/dev/null)
keep=""
if [ "$init" = docker-init ] || [ "$init" = tini ]; then
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    read -r line < "$d/stat" 2>/dev/null || continue
    rest=${line##*) }; set -- $rest
    if [ "$2" = 1 ] && { [ -z "$keep" ] || [ "$p" -lt "$keep" ]; }; then keep=$p; fi
  done
fi
for round in 1 2 3; do
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    case "$p" in 1|"$self"|"$keep"|"$spare") continue;; esac
    read -r line < "$d/stat" 2>/dev/null || continue
    rest=${line##*) }; set -- $rest
    # spare our own subshells (their parent is this shell)
    [ "$2" = "$self" ] && continue
    kill -9 "$p" 2>/dev/null
  done
done
exit 0
"""

_RESET_DIRS = f"""
chattr -R -i {TESTS_DIR} {LOGS_DIR} 2>/dev/null; chattr -i /logs 2>/dev/null
if [ -L /logs ] || {{ [ -e /logs ] && [ ! -d /logs ]; }}; then rm -rf /logs || exit 3; fi
rm -rf {TESTS_DIR} {LOGS_DIR} || exit 3
mkdir -p {TESTS_DIR} {LOGS_DIR} || exit 3
for d in {TESTS_DIR} /logs {LOGS_DIR}; do
  [ -d "$d" ] && [ ! -L "$d" ] || exit 4
done
[ -z "$(ls -A {TESTS_DIR})" ] && [ -z "$(ls -A {LOGS_DIR})" ] || exit 5
exit 0
"""


def stop_leftovers(sandbox: Sandbox, spare: int | None = None) -> None:
    """Kill every process the agent left (but `spare`, the agent's shell for a same-shell TB1 task):
    before the tests run, and before the attempt's state is read for its estimate."""
    sandbox.exec(f"spare={spare or 0}\n{_KILL_LEFTOVERS}", timeout=30)


def verify(sandbox: Sandbox, task: Task) -> VerifyResult:
    started = time.monotonic()
    if not task.tests_dir.is_dir():
        return VerifyResult(False, None, "unverified", "the task has no tests", 0.0)

    def done(passed: bool, reward: float | None, mode, output: str) -> VerifyResult:
        return VerifyResult(passed, reward, None if passed else mode, output,
                            round(time.monotonic() - started, 3))

    same_shell = task.layout == "terminal-bench" and task.run_tests_in_same_shell
    shell = sandbox.shell_pid if same_shell else None  # recorded by the harness when the shell started
    if not sandbox.info.isolated:
        # The steps below address the environment's own /proc, /tests and /logs: on an unisolated
        # (local) sandbox those are this machine's, and the kill would take the harness with it.
        return done(False, None, "verifier_error", "a task's tests run only in an isolated sandbox "
                    "(sandbox.kind: docker); here they would wipe this machine's /tests and /logs/verifier "
                    "and kill its processes")
    stop_leftovers(sandbox, shell)
    reset = sandbox.exec(_RESET_DIRS, timeout=30)
    if reset.exit_code != 0:
        return done(False, None, "verifier_error",
                    f"could not reset {TESTS_DIR} and {LOGS_DIR} (exit {reset.exit_code}): {reset.output[-500:]}")

    if task.tests_dir.is_dir():
        sandbox.copy_in(task.tests_dir, TESTS_DIR)
    env = dict(task.verifier_env)
    if task.layout == "terminal-bench":
        sandbox.copy_in(task.path / task.test_script, f"{TESTS_DIR}/{task.test_script}")
        env = {**TB1_TEST_ENV, **env}

    # The tests run as the environment's user; /logs/verifier must be theirs to write the reward.
    user = task.verifier_user or ""
    who = sandbox.exec("echo \"$(id -u):$(id -g)\"", timeout=30, user=user)
    owner = who.output.strip().splitlines()[-1] if who.exit_code == 0 and who.output.strip() else ""
    if not owner.replace(":", "").isdigit():
        return done(False, None, "verifier_error",
                    f"cannot run the tests as user {user or '(the image USER)'}: {who.output[-300:]}")
    chown = sandbox.exec(f"chown {owner} {LOGS_DIR}", timeout=30) if owner != "0:0" else who
    if chown.exit_code != 0:
        return done(False, None, "verifier_error", f"cannot hand {LOGS_DIR} to {owner}: {chown.output[-300:]}")

    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items())
    if same_shell:
        # In the agent's shell, as the agent's user, with what it exported and where it stands; the
        # variables as prefix assignments (no `env`: the shell's own syntax, not a command it may redefine).
        # First a no-op, which takes whatever the killed jobs printed before they died: the shell keeps
        # such late output for its next command, and that must not be the tests.
        sandbox.run(":", timeout=30)
        run = sandbox.run(f"{exports} bash {TESTS_DIR}/{task.test_script}".lstrip(),
                          timeout=task.verifier_timeout_sec)
        where = "the agent's shell" if not run.shell_restarted else "the agent's shell (it exited; a new one)"
    else:
        command = f"{'env ' + exports + ' ' if exports else ''}bash {TESTS_DIR}/{task.test_script}"
        run = sandbox.exec(command, timeout=task.verifier_timeout_sec, user=user)
        where = "a fresh process"
    if run.timed_out:
        return done(False, None, "verifier_timeout", run.output[-4000:])

    if task.layout == "terminal-bench":
        name = task.parser_name or DEFAULT_PARSER
        parsed = PARSERS[name](run.output)  # the exit status is discarded, as in TB1
        return done(parsed.passed, 1.0 if parsed.passed else 0.0, "unresolved",
                    f"{name} parser: {parsed.describe()} (tests ran in {where}; script exit {run.exit_code}, "
                    f"not used)\n{run.output[-4000:]}")

    reward, problem = _read_reward(sandbox)
    if reward is None:
        return done(False, None, "verifier_error", f"{problem}\n{run.output[-4000:]}")
    return done(reward >= 1.0, reward, "unresolved", f"{problem}\n{run.output[-4000:]}".lstrip("\n"))


# What TB1 sets for its test scripts: the tests' directory, and where the container keeps logs.
TB1_TEST_ENV = {"TEST_DIR": TESTS_DIR, "T_BENCH_TEST_DIR": TESTS_DIR, "T_BENCH_CONTAINER_LOGS_PATH": "/logs",
                "T_BENCH_CONTAINER_AGENT_LOGS_PATH": "/logs/agent"}


def _read_file(sandbox: Sandbox, name: str) -> str | None:
    """A regular file in /logs/verifier (not a link), at most 64 KiB; None when there is none."""
    path = f"{LOGS_DIR}/{name}"
    result = sandbox.exec(f"[ -f {path} ] && [ ! -L {path} ] || exit 9; head -c 65536 {path}", timeout=10)
    return result.output if result.exit_code == 0 else None


def _read_reward(sandbox: Sandbox) -> tuple[float | None, str]:
    """The reward the tests wrote, reward.json first (as Harbor reads it), else reward.txt (a number).
    Returns (reward, note): the note says which metrics made the reward, or why there is none."""
    data = _read_file(sandbox, "reward.json")
    if data is not None:
        return reward_from_json(data)
    text = _read_file(sandbox, "reward.txt")
    if text is not None:
        try:
            value = float(text.strip())
        except ValueError:
            return None, f"reward.txt does not hold a number: {text.strip()[:100]!r}"
        return (value, "") if math.isfinite(value) else (None, f"reward.txt is not finite: {text.strip()[:100]!r}")
    return None, f"the tests wrote no reward file in {LOGS_DIR}"


def reward_from_json(text: str) -> tuple[float | None, str]:
    """reward.json: a JSON object of numbers (Harbor's rewards dict), or a bare number.

    The reward is the "reward" key when there is one; else the only key's value; else (several
    metrics, no "reward") their mean, so the task passes only when every metric reaches 1.
    Harbor's own default metric refuses several keys; we keep every metric in the note."""
    try:
        value = json.loads(text)
    except ValueError:
        return None, f"reward.json is not JSON: {text.strip()[:100]!r}"
    if _is_number(value):
        return float(value), ""
    if not isinstance(value, dict) or not value:
        return None, f"reward.json must be an object of numbers: {text.strip()[:100]!r}"
    bad = [k for k, v in value.items() if not _is_number(v)]
    if bad:
        return None, f"reward.json: {bad[0]!r} is not a finite number: {text.strip()[:100]!r}"
    metrics = {str(k): float(v) for k, v in value.items()}
    note = "reward.json: " + ", ".join(f"{k}={v:g}" for k, v in list(metrics.items())[:20])
    if "reward" in metrics:
        return metrics["reward"], note
    return sum(metrics.values()) / len(metrics), note + (" (mean)" if len(metrics) > 1 else "")


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
