"""What every part of the configuration shares: the strict base model (unknown keys and wrong types
are errors, assignments validated too), key paths into the raw mapping, the mark of a redacted value."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

REDACTED = "<redacted>"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def set_path(data: dict[str, Any], keys: list[str], value: Any, create: bool = False) -> None:
    """Set the value at a key path in nested dicts (a --set override, a redaction)."""
    node = data
    for key in keys[:-1]:
        if key not in node or node[key] is None:
            if not create:
                return
            node[key] = {}
        node = node[key]
        if not isinstance(node, dict):
            raise TypeError(key)
    node[keys[-1]] = value
