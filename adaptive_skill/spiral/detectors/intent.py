"""Intent repetition: the same thing tried again with other tools or words.

- installs that fail, of the same packages (`pip install x`, `python3 -m pip install 'x>=1'`,
  `pip3 install --user x`), or of other packages by one installer failing the same way once the
  names are set aside (`apt-get install libicu-dev`, `apt install icu-devtools`: "Unable to locate
  package" each time);
- look-ups that keep finding nothing new: nothing at all, only noise (`binary file matches`,
  `Permission denied`), or only what earlier look-ups found (`which pg_dump`, `find / -name
  pg_dump`, `locate`, `dpkg -S`: always the same 15 client);
- a service polled again and again that never answers (`curl`, `sleep 5; curl`, `until curl ...`,
  `wget --retry`, `pg_isready`, `ss -ltn | grep :8080`): refused, empty, a 5xx or `no response`, or
  the same answer again. A job whose answer moved and then stopped moving (a count stuck at 137 of
  200) has stalled: it takes fewer polls (`stall_repeats`) than a service not up yet (`poll_repeats`).

Polling gets no other tolerance here: a wait that brings nothing new is counted like any other try.
Success ends a streak: the package installed, a look-up that found something new, a new answer."""

from __future__ import annotations

import re

from adaptive_skill.config import IntentRepetitionConfig
from adaptive_skill.spiral.detectors.base import Detection, History
from adaptive_skill.spiral.intent import install_segments, intent_of
from adaptive_skill.spiral.steps import StepView
from adaptive_skill.spiral.text import fingerprint

# An answer that is no answer: nothing listens, the server errs, or a wait gave up.
_NO_ANSWER = re.compile(r"refused|couldn't connect|could not connect|failed to connect|connection reset"
                        r"|no route to host|timed? ?out|unreachable|name or service not known|no response"
                        r"|^\s*(?:000|5\d\d)\s*$|^HTTP/[\d.]+ 5\d\d\b|<title>5\d\d\b"
                        r"|\b(?:Bad Gateway|Service Unavailable)\b"
                        r"|\b(?:unhealthy|health: starting|activating|BACKOFF|FATAL|CrashLoopBackOff|Exited \(\d+\))"
                        r"|^\s*(?:starting|inactive|failed|dead|STARTING)\s*$",
                        re.IGNORECASE | re.MULTILINE)
_EXIT_ECHO = re.compile(r"echo \$\?\s*$")
# Lines of a look-up's output that are not findings.
_NOISE = re.compile(r"permission denied|no such file or directory|binary file .* matches|is a directory"
                    r"|not found|unable to locate|no required module provides|\(none\)|no symbol"
                    r"|warning: package\(s\) not found|^\s*$", re.IGNORECASE)
_PATH = re.compile(r"(?:^|[\s:=])(\.?/?[\w.@+-]+(?:/[\w.@+-]+)+)")
_FILE = re.compile(r"(?<![\w./-])([\w-]+\.[A-Za-z]\w{0,5})(?=[:\s,)]|$)")
_QUERY_ERRORS = {"grep", "egrep", "fgrep", "rg", "ag", "ack"}  # exit 2: a bad pattern, not "nothing found"


def _bare(path: str) -> str:
    """A finding as a path: `./a/b.py:12:` and `a/b.py` are one, so is git grep's `<rev>:a/b.py`."""
    path = re.sub(r"^[0-9a-f]{7,40}:", "", path)
    return path.removeprefix("./").rstrip(":/")


class IntentRepetition:
    name = "intent_repetition"

    def __init__(self, config: IntentRepetitionConfig):
        self.config = config
        self.streaks: dict[tuple[str, str], list[StepView]] = {}
        self.answers: dict[str, list[str]] = {}  # poll target -> its answers, in order
        self.found: dict[str, int] = {}  # a look-up's finding -> the last step that showed it

    def feed(self, step: StepView, history: History) -> Detection | None:
        if step.tool != "bash" or not step.acted:
            return None
        intent = intent_of(step.argument)
        if intent is None:
            return None
        keys, needed = [(intent.kind, intent.key)], {}
        if intent.kind == "install":
            tried = step.failed
            needed = self.config.install_repeats
            if tried and (family := self._failing_family(step)):
                keys.append(("install", family))
        elif intent.kind == "search":
            tried, needed = self._fruitless(step), self.config.search_repeats
        else:
            tried, needed = self._unanswered(step, intent.key)
        if not tried:
            for key in keys:
                self.streaks.pop(key, None)
            return None
        detection = None
        for kind, key in keys:
            streak = [s for s in self.streaks.get((kind, key), []) if step.index - s.index < self.config.window]
            self.streaks[kind, key] = [*streak, step]
            if len(streak) + 1 >= needed and detection is None:
                detection = self._detection(kind, key if key == intent.key else "", [*streak, step], needed)
        return detection

    def _failing_family(self, step: StepView) -> str | None:
        """One installer failing the same way whatever the packages asked for."""
        names = [name for specs in install_segments(step.argument) for name, _ in specs]
        if not names:
            return None
        signature = step.error_signature
        for name in sorted(names, key=len, reverse=True):
            signature = re.sub(re.escape(name) + r"\S*", "<pkg>", signature, flags=re.IGNORECASE)
        installer = step.argument.split()[0] if not step.argument.startswith("sudo") else step.argument.split()[1]
        return f"{installer.removesuffix('-get')}: {signature}"

    def _fruitless(self, step: StepView) -> bool:
        """The look-up found nothing new: nothing but noise, or only what earlier ones found."""
        if step.failed and step.exit_code not in (None, 1) and step.argument.split()[0] in _QUERY_ERRORS:
            return False  # a broken pattern is an error, not "nothing found"
        if step.failed:
            return True  # the look-up itself failed (`go doc`: no module provides it; `ls`: no such directory)
        lines = [line.strip() for line in step.output.splitlines()[:200] if not _NOISE.search(line)]
        findings = set()
        for line in lines:
            named = {_bare(p) for p in _PATH.findall(line) + _FILE.findall(line)}
            findings |= named or {line}
        recent = {f for f, at in self.found.items() if step.index - at < self.config.window}
        new = {f for f in findings if f not in recent and not any(f.startswith(r + "/") for r in recent)}
        for finding in findings:
            self.found[finding] = step.index
        if len(self.found) > 512:
            self.found = {f: at for f, at in self.found.items() if step.index - at < self.config.window}
        return not new

    def _unanswered(self, step: StepView, target: str) -> tuple[bool, int]:
        """(no new answer, polls needed): a stalled job needs fewer than a service not up yet."""
        answers = self.answers.setdefault(target, [])
        output = step.output.strip()
        no_answer = step.failed or not output or bool(_NO_ANSWER.search(output)) or (
            bool(_EXIT_ECHO.search(step.argument)) and output.split()[-1] not in ("0",))
        answer = fingerprint(step.output)
        stalled = not no_answer and len(set(answers)) >= 2 and answers[-1] == answer
        tried = no_answer or answer in answers
        if not no_answer:
            answers.append(answer)
            del answers[:-16]
        return tried, self.config.stall_repeats if stalled else self.config.poll_repeats

    def _detection(self, kind: str, key: str, streak: list[StepView], needed: int) -> Detection:
        packages = " / ".join(dict.fromkeys(i.key for s in streak if (i := intent_of(s.argument))))
        target = key.removeprefix("wait:").removeprefix("path:")
        what = {"install": f"install {key or packages}", "search": "find something with a look-up",
                "poll": f"see something new in {target}" if key.startswith("path:") else f"reach {target}"}[kind]
        commands = list(dict.fromkeys(s.short_action(60) for s in streak))
        result = {"install": "the same failure", "search": "nothing new was found",
                  "poll": "no new answer came back"}[kind]
        return Detection(self.name, min(2.0, len(streak) / needed),
                         f"you tried to {what} {len(streak)} times in other ways and it did not work: {result}",
                         {"kind": kind, "intent": key, "count": len(streak), "commands": commands[:5],
                          "steps": [s.index for s in streak]},
                         span_start=streak[0].index)
