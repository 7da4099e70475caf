"""Sandboxes: where commands run. Only the light protocol types are imported here; the Docker
and local implementations are imported from their modules by whoever needs them."""

from adaptive_skill.sandbox.base import (
    CommandResult,
    Sandbox,
    SandboxError,
    SandboxInfo,
    SandboxLimits,
    truncate_middle,
)

__all__ = ["CommandResult", "Sandbox", "SandboxError", "SandboxInfo", "SandboxLimits", "truncate_middle"]
