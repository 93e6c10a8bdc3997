"""What the mahjong rulesets share: tile counts, melds and hand decomposition."""
