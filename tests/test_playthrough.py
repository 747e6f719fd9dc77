"""Random playthroughs (hypothesis-driven) checking invariants on every step.

Every state: 101 - (cards in play) stock cards unseen, no card twice, halls legal,
depot <= 3, notation round-trips. Plus the monotonicity the solvers rely on: any
subset of a legal final hall is legal, so placement order never matters.
"""

import random

from hypothesis import given, settings, strategies as st

from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.notation import format_state, parse_state
from solver.rules import Rules, VARIATIONS, Showcase
from solver.requirements import violation
from solver.scoring import multi_results, solo_breakdown


def legal_hall(game, state, player):
    """Every card in the hall is legal against all the others (placed last, in any order)."""
    halls = [list(b.hall) for b in state.players]
    for flat, placed in enumerate(halls[player]):
        if placed is None:
            continue
        halls[player][flat] = None
        if violation(game.rules, halls, player, flat, placed) is not None:
            return False
        halls[player][flat] = placed
    return True


def random_rules(rng):
    chosen = {}
    for v in VARIATIONS:
        if rng.random() < 0.3:
            chosen.setdefault(v.position, v)
    return Rules(frozenset(chosen.values()), rng.choice([None, rng.randrange(10)]), rng.random() < 0.3)


def check_invariants(game, state):
    seen = state.visible_cards()
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert len(seen) == 18 + state.drawn
    assert set(seen) == set(game.deal.cards[: 18 + state.drawn])
    for column in state.market:
        assert len(column) <= 3
        assert list(column) == sorted(column, key=lambda c: c.sort_key())
    for i, b in enumerate(state.players):
        assert len(b.depot) <= 3
        assert legal_hall(game, state, i)
    text = format_state(state, game.rules)
    again, rules = parse_state(text)
    assert again == state and rules == game.rules
    assert format_state(again, rules) == text


def play(seed, players, rules, moves_seed):
    game = Game(Deal(seeded_deal(seed).cards, rules), players)
    rng = random.Random(moves_seed)
    state = game.initial_state()
    while not state.is_over:
        check_invariants(game, state)
        takes = game.legal_takes(state)
        assert takes, "a live game always offers a take"
        state = game.apply_take(state, rng.choice(takes))
        check_invariants(game, state)
        places = game.legal_places(state)
        assert places
        state = game.apply_place(state, rng.choice(places))
    check_invariants(game, state)
    return game, state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_solo_games_keep_invariants(seed, moves_seed, rules_seed):
    game, state = play(seed, 1, random_rules(random.Random(rules_seed)), moves_seed)
    board = state.board
    assert 1 <= state.turn <= 19
    assert board.empty_spots == 0 or board.discarded is not None or (game.rules.depot_full_ends_game and len(board.depot) == 3)
    b = solo_breakdown(game, state)
    assert b.total == sum(v for _, v in b.items)
    assert b.as_dict()["empty_spots"] == -100 * board.empty_spots


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.integers(0, 10_000))
def test_random_multi_player_games_keep_invariants(seed, players, moves_seed):
    game, state = play(seed, players, Rules(), moves_seed)
    assert all(b.ended for b in state.players)
    assert len(multi_results(game, state)) == players


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_requirements_are_monotone(seed, moves_seed):
    """Removing any cards from a legal hall leaves a legal hall (order-independence)."""
    rules = Rules(frozenset({Showcase.LINKS, Showcase.ONE_DECADE}) if seed % 2 else frozenset({Showcase.SPREAD_THE_YEARS}))
    game, state = play(seed, 1, rules, moves_seed)
    rng = random.Random(seed)
    from dataclasses import replace

    hall = tuple(p if rng.random() < 0.5 else None for p in state.board.hall)
    thinned = replace(state, players=(replace(state.board, hall=hall),))
    assert legal_hall(game, thinned, 0)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789ABEINOCSAFU_-.,:/=+xsthrpd", max_size=120))
def test_state_parser_never_crashes(text):
    """Any text either parses or raises the precise NotationError-family exception."""
    from solver.errors import ExhibitionError

    try:
        parse_state(text)
    except ExhibitionError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 200))
def test_mangled_state_strings_never_crash(seed, moves_seed, cut):
    """Truncated or edited real states raise ExhibitionError or parse; nothing else."""
    from solver.errors import ExhibitionError

    game, state = play(seed, 1, Rules(), moves_seed)
    text = format_state(state, game.rules)
    for mangled in (text[:cut], text[cut:], text.replace(".", ",", 1 + cut % 3), text.replace("_", "1900OC", 1)):
        try:
            parse_state(mangled)
        except ExhibitionError:
            pass
