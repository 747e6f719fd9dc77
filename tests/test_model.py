"""The CP-SAT model against the rules engine: placement of random take sequences, item by
item scoring, and an exhaustive engine search on short games."""

import pytest

from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.notation import parse_rules
from solver.scoring import solo_breakdown
from solver.solve import solve
from tests.helpers import brute_force_from, endgames, random_plan

RULE_SETS = ["base", "SHORT_ERA+LINKS+ANTIQUITY", "SPREAD_THE_YEARS+ONE_DECADE+UNIQUE_DECADES+SD3", "DFE", "SD5"]


def random_game(seed, rules):
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    turns, final = random_plan(game, seed)
    return game, [t.take.card for t in turns], solo_breakdown(game, final).total


@pytest.mark.parametrize("seed", range(40))
def test_placement_beats_or_matches_a_random_legal_placement(seed):
    game, takes, random_score = random_game(seed, RULE_SETS[seed % len(RULE_SETS)])
    solution = solve(game, takes=takes)
    # solve() replays the plan through the engine; its score is the engine's
    assert [t.take.card for t in solution.plan] == takes
    assert solution.score >= random_score
    assert solution.status == "optimal" and solution.bound == solution.score


@pytest.mark.parametrize("seed", range(20))
def test_model_items_equal_engine_items(seed):
    game, takes, _ = random_game(100 + seed, RULE_SETS[seed % len(RULE_SETS)])
    solution = solve(game, takes=takes)
    assert dict(solution.model_items) == solution.outcome.breakdown.as_dict()


def brute_force(game, state, depth):
    """Best engine score after ``depth`` more turns (or the end of the game): the engine alone."""
    if depth == 0 or state.is_over:
        return solo_breakdown(game, state).total
    best = None
    for turn in game.legal_turns(state):
        value = brute_force(game, game.apply_turn(state, turn, check=False), depth - 1)
        best = value if best is None else max(best, value)
    return best


def white_free_seeds(depth, count):
    seeds = []
    for seed in range(1000):
        if not any(c.is_white for c in seeded_deal(seed).cards[: 18 + depth]):
            seeds.append(seed)
        if len(seeds) == count:
            return seeds


@pytest.mark.parametrize("seed", white_free_seeds(2, 3))
def test_short_game_optimum_equals_exhaustive_search(seed):
    game = Game(seeded_deal(seed))
    expected = brute_force(game, game.initial_state(), 2)
    solution = solve(game, turn_limit=2)
    assert solution.status == "optimal"
    assert solution.score == expected


@pytest.mark.parametrize("seed", white_free_seeds(3, 2))
def test_three_turn_optimum_equals_exhaustive_search(seed):
    game = Game(seeded_deal(seed))
    assert solve(game, turn_limit=3).score == brute_force(game, game.initial_state(), 3)


def test_greedy_plan_is_legal_and_solve_never_returns_nothing():
    from solver.greedy import greedy_plan
    from solver.plan import replay

    game = Game(seeded_deal(3))
    greedy = replay(game, greedy_plan(game))
    assert greedy.final.is_over
    quick = solve(game, time_limit=0.05, workers=1)  # too short for CP-SAT: still a legal plan
    assert quick.status in ("feasible", "optimal") and quick.bound >= quick.score
    assert replay(game, quick.plan).score == quick.score


VARIANT_SETS = ["base", "SPREAD_THE_YEARS", "LINKS", "SHORT_ERA", "ONE_DECADE", "ANTIQUITY", "UNIQUE_DECADES",
                "SD2", "DFE", "LINKS+SHORT_ERA+ANTIQUITY"]


@pytest.mark.parametrize("rules", VARIANT_SETS)
def test_endgame_optimum_equals_exhaustive_search_under_each_variation(rules):
    """Solving from a mid-game state (hall partly filled, maybe a card held) agrees with an
    exhaustive search of the engine to the end of the game, under every variation."""
    for game, state in endgames(rules, 4):
        solution = solve(game, state=state)
        assert solution.status == "optimal"
        assert solution.score == brute_force_from(game, state), (rules, state)
