"""The warm start's beam search: its bit-mask items against ``solver/scoring.py``, legal take
sequences, exact placement of its sequences, and ``solve`` staying whole under tiny time
limits."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from solver.cards import Card, Continent
from solver.deal import seeded_deal
from solver.engine import Game
from solver.bounds import sequence_bound
from solver.model import start_of
from solver.notation import parse_rules
from solver.plan import replay
from solver.scoring import continent_focus, decade_count, longest_chain
from solver.solve import place_candidates, solve
from solver.warmstart import FIRST_HEURISTIC, HEURISTIC, _Beam, _longest_run, beam_candidates, outcome_key
from tests.helpers import endgames

YEARS = st.sets(st.integers(1900, 1999), max_size=30)


@given(YEARS)
def test_longest_run_of_a_year_mask_is_the_chain_of_years(years):
    mask = sum(1 << (y - 1900) for y in years)
    assert _longest_run(mask) == longest_chain([Card(y, Continent.EU) for y in years])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 19), st.sampled_from(["base", "ONE_DECADE", "LINKS"]))
def test_potential_items_follow_the_card_lists(seed, takes, rules):
    """Walk a random line of takes through the beam's nodes; every item it keeps as bits and
    counts equals the same item computed from the card lists."""
    game = Game(seeded_deal(seed, parse_rules(rules)))
    beam = _Beam(game, game.initial_state(), HEURISTIC)
    rng = random.Random(seed)
    node, owned = beam.root, []
    for turn in range(takes):
        node = rng.choice(list(beam.children(node, turn)))
        owned.append(node.takes[-1].card)
    market = [beam.cards[i] for column in node.market for i in column]
    state = game.initial_state()
    for take in node.takes:
        state = game.take_only(state, take)  # the beam's market is the engine's
    assert sorted(map(str, market)) == sorted(map(str, state.market_cards))
    assert node.vehicle == state.board.vehicle
    dated = [c.year for c in owned if c.year is not None]
    six = len({c.continent for c in owned if c.continent is not None}) == len(Continent)
    focus_most = 5 if rules == "LINKS" else 7  # LINKS covers ONE CONTINENT: one card of a continent per showcase
    items = decade_count(owned) + min(focus_most, continent_focus(owned)) + longest_chain(owned) + six
    expected = 100 * items + max((100 - 2 * abs(y - 1950) for y in dated), default=0)
    room = 16  # the spots the cards could fill; ONE DECADE's four only with the years of one decade,
    if rules == "ONE_DECADE":  # LINKS' three only with three years at most 5 apart in turn
        room = 12 + min(4, max(len({y for y in dated if y // 10 == d}) for d in range(190, 200)))
    if rules == "LINKS":
        linked = any(0 < b - a <= 5 and 0 < c - b <= 5 for a in dated for b in dated for c in dated)
        room = 13 + (3 if linked else min(2, len(set(dated))))
    expected += 60 * min(len(owned), room) - 100 * max(0, len(owned) - room)  # cards, then the depot
    if len(set(dated)) >= 2:  # YEARS GAP estimate: market cards outside the extremes
        outside = sum(1 for c in market if c.year is not None and not min(dated) <= c.year <= max(dated))
        expected += 100 * max(0, 5 - outside)
    assert beam.potential(node) == expected


@pytest.mark.parametrize("heuristic", [HEURISTIC, replace(HEURISTIC, width=1000, candidates=60), FIRST_HEURISTIC],
                         ids=["current", "wide", "first"])
@pytest.mark.parametrize("seed", range(3))
def test_beam_candidates_are_legal_take_sequences(seed, heuristic):
    game = Game(seeded_deal(seed))
    candidates = beam_candidates(game, game.initial_state(), 19, heuristic)
    assert 1 <= len(candidates) <= heuristic.candidates
    assert len({outcome_key(takes) for takes in candidates}) == len(candidates)  # no placement asked twice
    for takes in candidates:
        state = game.initial_state()
        for take in takes:
            state = game.take_only(state, take)  # raises on an illegal take
        assert 16 <= len(takes) <= 19


def test_beam_from_late_states_plays_only_the_turns_left():
    for game, state in endgames("base", 2, turns_left=5):
        for takes in beam_candidates(game, state, 5):
            assert 1 <= len(takes) <= 5


@pytest.mark.parametrize("limit", [0.01, 0.1, 0.4])
def test_solve_with_a_tiny_time_limit_still_returns_a_replayed_plan(limit):
    game = Game(seeded_deal(4))
    found = solve(game, time_limit=limit, workers=2)
    assert found.outcome.score == found.score <= found.bound
    assert found.status == ("optimal" if found.score == found.bound else "feasible")


def test_placing_above_a_floor_on_threads_finds_the_same_best_line():
    """``place_candidates`` with a floor and two threads: the same best score as placing every
    sequence in turn, and None when nothing can beat the floor."""
    game = Game(seeded_deal(3))
    state = game.initial_state()
    candidates = beam_candidates(game, state, 19, replace(HEURISTIC, width=300, candidates=8))
    each = place_candidates(game, state, candidates, 30, 1)
    assert each is not None and replay(game, each.plan).score == each.score
    above = place_candidates(game, state, candidates, 30, 1, floor=each.score - 1, threads=2)
    assert above is not None and above.score == each.score
    assert replay(game, above.plan).score == above.score
    assert place_candidates(game, state, candidates, 30, 1, floor=each.score, threads=2) is None


def test_placing_above_a_floor_asks_the_sequences_highest_bound_first(monkeypatch):
    """With a floor every sequence that may beat it is asked, in the order of their
    ``sequence_bound`` (the beam's own order is not that)."""
    game = Game(seeded_deal(6, parse_rules("SHORT_ERA")))
    state = game.initial_state()
    candidates = beam_candidates(game, state, 19, replace(HEURISTIC, width=300, candidates=30))
    bound_of = {tuple(t.card for t in c): sequence_bound(game, state, c) for c in candidates}
    beam_order = list(bound_of.values())
    assert beam_order != sorted(beam_order, reverse=True)
    asked = []
    monkeypatch.setattr("solver.solve.solve", lambda game, takes, **_: asked.append(bound_of[tuple(takes)]))
    assert place_candidates(game, state, candidates, 30, 1, floor=min(beam_order) - 1) is None  # nothing placed
    assert asked == sorted(beam_order, reverse=True)


def test_cards_the_hall_cannot_take_count_as_depot_cards_in_the_beam():
    """Late in a game the beam knows which coloured cards no empty spot of the hall takes as
    it stands (the engine agrees card by card, over the cards the game can still draw);
    taking one adds nothing to the items, only a depot card, which the potential charges.
    An empty hall, or the first heuristic, knows none."""
    taken = 0
    for game, state in endgames("base", 4, turns_left=5):
        beam = _Beam(game, state, HEURISTIC)
        drawable = len(state.market_cards) + start_of(game, state).turns  # the market, then the stock in reach
        for i, c in enumerate(beam.cards[:drawable]):
            if not c.is_white:
                assert (i in beam.misfit) == (not game.has_legal_spot(state, c))
        for child in beam.children(beam.root, 0):
            if beam.index[child.takes[-1].card] in beam.misfit:
                taken += 1
                assert child.misfits == 1
                assert (child.owned, child.years, child.counts) == (beam.root.owned, beam.root.years, beam.root.counts)
                kept = child._replace(misfits=0)
                assert beam.potential(child) == beam.potential(kept) - HEURISTIC.depot_cost
        assert not _Beam(game, state, FIRST_HEURISTIC).misfit
    assert taken > 0
    game = Game(seeded_deal(5))
    assert not _Beam(game, game.initial_state(), HEURISTIC).misfit
