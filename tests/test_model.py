"""The CP-SAT model against the rules engine: placement of random take sequences, item by
item scoring, and an exhaustive engine search on short games."""

import pytest
from ortools.sat.python import cp_model

from solver.bounds import static_bound
from solver.deal import Deal, parse_cards, seeded_deal
from solver.deck import default_deck
from solver.engine import Game
from solver.hints import sampled_game
from solver.model import build_solo_model, start_of
from solver.moves import Place
from solver.notation import parse_rules
from solver.rules import showcase_of
from solver.scoring import solo_breakdown
from solver.solve import REFUTING_SUBSOLVERS, feasibility_solver_for, solve, solver_for
from solver.validate import hidden_stock
from tests.helpers import RULE_SETS, brute_force_from, endgames, random_game, random_plan


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


@pytest.mark.parametrize("seed", [3, 8])
def test_greedy_solution_is_the_engine_scored_greedy_game(seed):
    """The plan the proof by cells starts from: the greedy game, from the start or from a
    place decision (its held card placed first), scored by the engine under the quick bound."""
    from solver.greedy import greedy_plan
    from solver.plan import replay
    from solver.solve import greedy_solution

    game = Game(seeded_deal(seed))
    start = greedy_solution(game)
    assert start.plan == greedy_plan(game) and start.place is None
    assert start.score == replay(game, start.plan).score and start.bound == static_bound(game)
    state = game.apply_take(game.initial_state(), game.legal_takes(game.initial_state())[0])
    held = greedy_solution(game, state)
    assert held.place is not None
    assert held.score == replay(game, held.plan, state=state, place=held.place).score
    assert held.status == ("optimal" if held.score == held.bound else "feasible") and held.bound >= held.score


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


def test_model_rules_out_one_era_sets_that_no_arrangement_takes():
    """Three ONE ERA cards with two gaps over 10 years (1957, 1968, 1979) leave one empty
    spot for two gaps that each need one, and a card on ERA's second spot (1928) keeps new
    neighbours within 20 years: no arrangement takes them. The model knows it, so placing
    this early-game line (a sampled hidden-stock future of seed 204, the held 1928EU on each
    spot) needs no cut from the engine; it needed 16 before."""
    game = Game(seeded_deal(204))
    state = game.initial_state()
    state = game.apply_take(state, game.legal_takes(state)[204 % len(game.legal_takes(state))])
    assert state.holding.code == "1928EU"
    sample = sampled_game(game, state, hidden_stock(state, default_deck()), 0, 0)
    line = parse_cards("1940SA 1901OC 1979AS 1956OC 1957AF 1980AS 1998NA 1985OC 1968EU 1978OC 1983OC "
                       "1975AS 1972OC 1965OC 1917EU 1976EU 1977SA".split(), minimum=0)
    for spot in range(4, 9):
        after = sample.apply_place(state, Place(spot))
        solution = solve(sample, takes=list(line), state=after, workers=1, stop_early=True, warm_start=False)
        assert solution.status == "optimal"
        assert solution.cuts == 0, spot


@pytest.mark.parametrize("seed", [1006, 1007, 1071, 1087])
def test_model_knows_end_needs_every_variation_showcase_in_use(seed):
    """An empty variation showcase takes any coloured card, so a random game that ends by
    END (seeds whose placement needed one or two engine cuts for this) is placed without
    a cut."""
    game, takes, random_score = random_game(seed, RULE_SETS[seed % len(RULE_SETS)])
    solution = solve(game, takes=takes)
    assert solution.score >= random_score
    assert solution.cuts == 0


@pytest.mark.parametrize("seed", range(15))
def test_the_model_without_the_vehicles_walk_holds_every_game(seed):
    """The relaxation's infeasibility refutes cells, so it must hold every game: a random
    game, from its start or from a later state (held card, hall cards, stock drawn), with
    its number of turns, its cards on their showcases and in the depot and every item at
    the engine's value, is one of its plans."""
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(RULE_SETS[seed % len(RULE_SETS)])))
    turns, final = random_plan(game, seed, spot_share=0.95)
    state, played = game.initial_state(), min(3 * (seed % 4), len(turns) - 1)
    for turn in turns[:played]:
        state = game.apply_turn(state, turn)
    if seed % 2:  # at the place decision: the next card held
        state = game.apply_take(state, turns[played].take)
    h = build_solo_model(game, start=start_of(game, state), walk=False)
    h.model.add(sum(h.active) == len(turns) - played - seed % 2)  # as many turns as the game's
    index = {c: i for i, c in enumerate(h.cards) if i not in h.fixed}
    for flat, placed in enumerate(final.board.hall):  # the game's own cards where it put them
        if placed is not None and placed.card in index:
            h.model.add(h.shelf[index[placed.card], showcase_of(flat)[0]] == 1)
    for card in final.board.depot:
        if card in index:
            h.model.add(h.depot[index[card]] == 1)
    for item, value in solo_breakdown(game, final).as_dict().items():
        expr = h.items[item]
        if isinstance(expr, int):
            assert expr == value, item
        else:
            h.model.add(expr == value)
    h.model.clear_objective()
    assert solver_for(20, 2).solve(h.model) == cp_model.OPTIMAL  # a plan found: nothing to optimise


@pytest.mark.parametrize("workers", [2, 8])
def test_feasibility_solver_answers_both_ways(workers):
    """The cells' solver (with 8 workers, four complete search workers only) is a valid
    CP-SAT setup that finds a plan where one exists and refutes where none does."""
    game = Game(seeded_deal(3))
    for target, status in ((0, cp_model.OPTIMAL), (static_bound(game) + 1, cp_model.INFEASIBLE)):
        h = build_solo_model(game)
        h.model.add(h.score >= target)
        h.model.clear_objective()
        solver = feasibility_solver_for(20, workers)
        complete_only = workers == 8
        assert solver.parameters.num_workers == (4 if complete_only else workers)
        assert list(solver.parameters.subsolvers) == (list(REFUTING_SUBSOLVERS) if complete_only else [])
        assert solver.parameters.use_lns is not complete_only
        assert solver.solve(h.model) == status
