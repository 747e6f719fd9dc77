"""Perft: the number of whole-turn move sequences of a given depth from a deal's start.

Like chess perft, these counts are rules-engine regression data: any change in what is
legal changes them. Regenerate (only after a deliberate rules change) with
``python -m tests.perft > tests/golden/perft.json``.
"""

from __future__ import annotations

import json

from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.notation import parse_rules
from solver.state import State

# (seed, rules notation, depth): chosen so that every count takes well under a second.
CASES = [(1, "base", 1), (1, "base", 2), (2, "base", 2), (4, "base", 1), (5, "SHORT_ERA+LINKS+ANTIQUITY", 2), (6, "DFE", 2),
         (7, "SPREAD_THE_YEARS+ONE_DECADE+UNIQUE_DECADES", 2), (2, "base", 3)]


def perft(game: Game, state: State, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for take in game.legal_takes(state):
        after_take = game.apply_take(state, take, check=False)
        for place in game.legal_places(after_take):
            total += perft(game, game.apply_place(after_take, place, check=False), depth - 1)
    return total


def case_game(seed: int, rules: str) -> Game:
    return Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))


if __name__ == "__main__":
    rows = []
    for seed, rules, depth in CASES:
        game = case_game(seed, rules)
        rows.append({"seed": seed, "rules": rules, "depth": depth, "count": perft(game, game.initial_state(), depth)})
    print(json.dumps(rows, indent=1))
