"""Perft regression: counts of whole-turn sequences from fixed deals (tests/golden/perft.json)."""

import json
from pathlib import Path

import pytest

from tests.perft import case_game, perft

GOLDEN = json.loads((Path(__file__).parent / "golden" / "perft.json").read_text())


def test_first_turn_count_by_hand():
    # Three coloured cards in the OC column; on an empty hall each fits all 16 spots or the depot.
    game = case_game(1, "base")
    assert perft(game, game.initial_state(), 1) == 3 * (16 + 1)


@pytest.mark.parametrize("row", [r for r in GOLDEN if r["depth"] < 3], ids=lambda r: f"seed{r['seed']}-{r['rules']}-d{r['depth']}")
def test_perft_golden(row):
    game = case_game(row["seed"], row["rules"])
    assert perft(game, game.initial_state(), row["depth"]) == row["count"]


@pytest.mark.slow
@pytest.mark.parametrize("row", [r for r in GOLDEN if r["depth"] >= 3], ids=lambda r: f"seed{r['seed']}-d{r['depth']}")
def test_perft_golden_deep(row):
    game = case_game(row["seed"], row["rules"])
    assert perft(game, game.initial_state(), row["depth"]) == row["count"]
