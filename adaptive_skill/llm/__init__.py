"""Models for every role: the litellm client, the embedded and scripted models (the LLM protocol
is in adaptive_skill/protocols.py).

Importing this package is cheap: litellm and llama.cpp load on first use.
"""

from adaptive_skill.llm.accounting import Accounting, CallRecord, Totals
from adaptive_skill.llm.base import (
    BudgetExceeded,
    LLMConfigError,
    LLMError,
    LLMResponse,
    ModelUnavailable,
    StructuredOutputError,
    ToolCall,
    Usage,
)
from adaptive_skill.llm.client import LLMClient
from adaptive_skill.llm.factory import make_llm

__all__ = [
    "Accounting", "BudgetExceeded", "CallRecord", "LLMClient", "LLMConfigError", "LLMError", "LLMResponse",
    "ModelUnavailable", "StructuredOutputError", "ToolCall", "Totals", "Usage", "make_llm",
]
