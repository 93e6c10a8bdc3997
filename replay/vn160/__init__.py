"""Ruleset ``vn-160`` (Vietnamese mahjong with flowers and khung jokers): building blocks.

Not registered in :mod:`replay.engine` yet; only the khung win test lives here so far.
"""

from replay.vn160.khung import KHUNG_CODES, completions, is_winning, khung_domain

__all__ = ["KHUNG_CODES", "completions", "is_winning", "khung_domain"]
