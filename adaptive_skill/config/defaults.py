"""The defaults that depend on other keys: a config that leaves them out runs the setup that learned
(docs/results.md: the agent's own attempts, explored twice more, voted on label-free and distilled),
with each part on only where what it needs is there. One table, applied to the config as written,
before validation; a key the config sets is never touched.

| key left out             | becomes                                                                  |
| ------------------------ | ------------------------------------------------------------------------ |
| `evolver.mode`           | `distill`                                                                |
| `explore.passes`         | 2 under `evolver.mode: distill`, else 0                                  |
| `explore.reflect`        | true where `explore.passes` >= 1                                         |
| `explore.agree`          | true where label-free (`trajectory_only`), `explore.passes` >= 1 and     |
|                          | `sandbox.kind: docker` (it compares the files two attempts left)         |
| `skill_in_prompt_tokens` | 300 under `distill`, else 0: distilled skills were measured placed in   |
|                          | the prompt only; the embedded models read no skill by themselves         |
|                          | (docs/log/results-runs.md, run 5). An API model that reads skills with   |
|                          | its tool may set 0 and save up to 300 prompt tokens a task               |

In an EvolveConfig this table decides these keys wherever they are left out. `skill_in_prompt_tokens`
declares no default of its own (a required field that this table always fills); the keys of a
section keep a declared default for the section made on its own (an `ExploreConfig()` explores
nothing; `evolver.mode` declares `distill`, as here).

The value a key gets is stored with the run (`config.yaml`); a resumed run takes a key its config
leaves out from there (`stored`), so it goes on with what it started with even where this table changed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

DEFAULT_MODE = "distill"
DISTILL_PASSES = 2
SKILL_TOKENS = 300  # measured for the 1.5B (docs/log/results-runs.md, run 5)


def _get(raw: Any, path: str, default: Any) -> Any:
    node: Any = raw
    for part in path.split("."):
        if isinstance(node, BaseModel):
            node = getattr(node, part, default)
        elif isinstance(node, dict):
            node = node.get(part, default)
        else:
            return default
    return node


KEYS = ("evolver.mode", "explore.passes", "explore.reflect", "explore.agree", "skill_in_prompt_tokens")


def fill_defaults(raw: Any, stored: dict[str, Any] | None = None) -> Any:
    """`raw` with the keys above filled in where it leaves them out (a new dict; `raw` is not changed).
    `stored`: a resumed run's config.yaml, whose value of a key left out wins over the table. A section
    given as a model (already validated, as on assignment to a field) is left as it is."""
    if not isinstance(raw, dict):
        return raw
    out = dict(raw)

    def section(name: str) -> dict[str, Any]:
        """The section to fill: a copy where it is a mapping, else a scratch dict nobody keeps (a model
        is settled; anything else is for validation to refuse)."""
        value = out.get(name, {})
        if isinstance(value, dict):
            out[name] = dict(value)
            return out[name]
        return _get(out, name, None).model_dump() if isinstance(value, BaseModel) else {}

    def kept(path: str, computed: Any) -> Any:
        value = _get(stored, path, None) if isinstance(stored, dict) else None
        return computed if value is None else value

    evolver, explore = section("evolver"), section("explore")
    mode = evolver.setdefault("mode", kept("evolver.mode", DEFAULT_MODE))
    passes = explore.setdefault("passes", kept("explore.passes", DISTILL_PASSES if mode == "distill" else 0))
    has_passes = isinstance(passes, int) and passes >= 1
    explore.setdefault("reflect", kept("explore.reflect", has_passes))
    label_free = _get(out, "trajectory_only", True) is True
    docker = _get(out, "sandbox.kind", "docker") == "docker"
    explore.setdefault("agree", kept("explore.agree", label_free and has_passes and docker))
    out.setdefault("skill_in_prompt_tokens", kept("skill_in_prompt_tokens", SKILL_TOKENS if mode == "distill" else 0))
    return out
