"""The rules engine: pure Python, no Django. Scores every variant from what the players entered."""

from .calculator import calculate, rules_for
from .cards import BASE_VALUES, Contract
from .errors import FieldError, RuleError
from .game import GameEntry, RamschEntry, Result, Table
from .messages import Message
from .options import OPTIONS, OptionSpec, Rules
from .variants import VARIANTS, Scheme, Variant, VariantSpec, find_variant

__all__ = [
    "BASE_VALUES",
    "OPTIONS",
    "VARIANTS",
    "Contract",
    "FieldError",
    "GameEntry",
    "Message",
    "OptionSpec",
    "RamschEntry",
    "Result",
    "RuleError",
    "Rules",
    "Scheme",
    "Table",
    "Variant",
    "VariantSpec",
    "calculate",
    "find_variant",
    "rules_for",
]
