"""The one place litellm is imported: lazily, because the import takes seconds."""

from __future__ import annotations

import os
from types import ModuleType


def import_litellm() -> ModuleType:
    # Use the cost map bundled with the package: by default litellm fetches it over the network
    # at import time, which hangs or fails offline and inside sandboxes.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    # litellm prints "Give Feedback / Get Help" banners to stdout on every error; our errors
    # already carry the reason in one line.
    litellm.suppress_debug_info = True
    return litellm
