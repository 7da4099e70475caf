"""What `evolve --resume` may change in a run's config, and the check that nothing else changed.

A resumed run continues from what it already measured: its split, its models, its judge, its gate,
its evolver. A config that differs from the stored one (DIR/config.yaml) in any of those would mix
two runs into one record, so it is refused in one line naming the keys. What may change is how
far and how fast the run goes on, and how a model is reached, never what it measures:

    max_cycles, workers, limits.max_tokens_per_run, limits.max_cost_per_run, limits.max_wall_time_sec,
    limits.max_concurrent_llm_calls, executor.*, paths.runs_dir, paths.workspace (read only when a run
    starts), sandbox.keep_containers, review.wait_for_review, models.<role>.max_retries and
    timeout_sec, curve.* (read by adaptive-skill curve only)

The changes made are recorded (the run_resume event's `changed`). A secret is not stored
(config.yaml holds <redacted> in its place), so it is not compared: an api_key, or a value read
from a secret-looking variable, may change unseen.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

from pydantic import ValidationError

from adaptive_skill.config.base import REDACTED

MAY_CHANGE = ("max_cycles", "workers", "limits.max_tokens_per_run", "limits.max_cost_per_run",
              "limits.max_wall_time_sec", "limits.max_concurrent_llm_calls", "executor", "paths.runs_dir",
              "paths.workspace", "sandbox.keep_containers", "review.wait_for_review", "models.*.max_retries",
              "models.*.timeout_sec", "curve")


def changed_keys(old: dict, new: dict, prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two settings mappings (nested ones followed)."""
    found = []
    for key in sorted(set(old) | set(new), key=str):
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            found += changed_keys(a, b, f"{prefix}{key}.")
        elif a != b:
            found.append(f"{prefix}{key}")
    return found


def resume_changes(stored: dict[str, Any], config) -> tuple[list[str], list[str]]:
    """The keys of `config` (an EvolveConfig) that differ from a run's stored config: those that may
    not change on resume, and those that may (MAY_CHANGE). The stored mapping is validated first, so
    keys a run of an older version left out compare as their defaults; a stored config this version
    cannot read (a key since removed) is compared as it is, on the keys both have. A key stored as
    redacted on either side is not compared."""
    from adaptive_skill.config.run import EvolveConfig

    try:
        old = EvolveConfig.model_validate(stored).redacted()
    except ValidationError:
        old = stored
    new = config.redacted()
    refused, allowed = [], []
    for key in changed_keys(old, new):
        if not (_has(old, key) and _has(new, key)) or REDACTED in (_get(old, key), _get(new, key)):
            continue
        (allowed if any(key == may or key.startswith(may + ".") or fnmatchcase(key, may) for may in MAY_CHANGE)
         else refused).append(key)
    return refused, allowed


def _has(data: dict, key: str) -> bool:
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _get(data: dict, key: str) -> Any:
    node: Any = data
    for part in key.split("."):
        node = node[part]
    return node
