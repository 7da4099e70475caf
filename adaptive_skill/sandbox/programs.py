"""Which common programs a task's container has: asked once per attempt, before the agent starts.

The evolver reads it (evolve/digest.py): told only that the containers have no network, the 1.5B
evolver proposed installing jq or zip, or nothing, for lack of knowing what it could use instead
(docs/log/results-runs.md, runs 10 and 12). The list is fixed here; whatever the container prints, only
names of this list are kept, so a hostile image cannot put words of its own in front of a model.
The harness runs PROBE (harness/attempt.py); this module imports nothing of the project, so the
observations and the evolver's digest can read its facts without a circle back to the sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass

# General tools a terminal task tends to need, and the alternatives to them a skill could name.
PROGRAMS = ("python3", "perl", "awk", "sed", "grep", "find", "xargs", "sort", "diff", "tar", "gzip", "bzip2",
            "xz", "zip", "unzip", "jq", "sqlite3", "git", "curl", "wget", "bc", "file", "xxd", "make", "gcc",
            "node")
PROBE = ("for p in " + " ".join(PROGRAMS) + "; do command -v \"$p\" >/dev/null 2>&1 && echo \"$p\"; done; true")


@dataclass(frozen=True)
class Programs:
    """Of PROGRAMS, those found on the container's PATH and those not."""

    installed: tuple[str, ...]
    missing: tuple[str, ...]

    def to_dict(self) -> dict[str, list[str]]:
        return {"installed": list(self.installed), "missing": list(self.missing)}

    @classmethod
    def from_dict(cls, data: object) -> Programs | None:
        """From what a file said: only names of PROGRAMS, each in one list; None if it is no such object."""
        if not isinstance(data, dict):
            return None
        installed, missing = (_known(data.get(key)) for key in ("installed", "missing"))
        if not installed and not missing:
            return None
        return cls(installed, tuple(name for name in missing if name not in installed))


def sentence(probed: list[Programs]) -> str:
    """One sentence for a model: the programs every given container had, and those none had ("" for none)."""
    if not probed:
        return ""
    installed = [p for p in PROGRAMS if all(p in found.installed for found in probed)]
    missing = [p for p in PROGRAMS if all(p in found.missing for found in probed)]
    parts = []
    if installed:
        parts.append(f"Installed in the tasks' containers: {', '.join(installed)}.")
    if missing:
        parts.append(f"Not installed there: {', '.join(missing)}.")
    return " ".join(parts)


def read_probe(output: str) -> Programs:
    """The probe's output (one name per line) as Programs; anything else it printed is ignored."""
    found = {line.strip() for line in output.splitlines()}
    return Programs(tuple(p for p in PROGRAMS if p in found), tuple(p for p in PROGRAMS if p not in found))


def _known(value: object) -> tuple[str, ...]:
    names = {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()
    return tuple(p for p in PROGRAMS if p in names)
