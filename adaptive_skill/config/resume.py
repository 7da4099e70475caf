"""What `evolve --resume` may change in a run's config, and the check that nothing else changed.

A resumed run continues from what it already measured: its split, its models, its judge, its gate,
its evolver. A config that differs from the stored one (DIR/config.yaml) in any of those would mix
two runs into one record, so it is refused in one line naming the keys. What may change is how
far and how fast the run goes on, never what it measures:

    max_cycles, workers, limits.max_tokens_per_run, limits.max_cost_per_run, limits.max_wall_time_sec,
    limits.max_concurrent_llm_calls, executor.*, paths.runs_dir, sandbox.keep_containers,
    review.* (people's verdicts, taken from the next batch on), curve.* (read by adaptive-skill curve only)
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

MAY_CHANGE = ("max_cycles", "workers", "limits.max_tokens_per_run", "limits.max_cost_per_run",
             "limits.max_wall_time_sec", "limits.max_concurrent_llm_calls", "executor", "paths.runs_dir",
             "sandbox.keep_containers", "review", "curve")


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


def resume_conflicts(stored: dict[str, Any], config) -> list[str]:
    """The keys of `config` (an EvolveConfig) that differ from a run's stored config and may not change
    on resume. The stored mapping is validated first, so keys a run of an older version left out
    compare as their defaults; a stored config this version cannot read (a key since removed) is
    compared as it is, on the keys both have."""
    from adaptive_skill.config.run import EvolveConfig

    try:
        old = EvolveConfig.model_validate(stored).redacted()
    except ValidationError:
        old = stored
    new = config.redacted()
    return [key for key in changed_keys(old, new)
            if not any(key == allowed or key.startswith(allowed + ".") for allowed in MAY_CHANGE)
            and _has(old, key) and _has(new, key)]


def _has(data: dict, key: str) -> bool:
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True
