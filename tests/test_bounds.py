"""The bounds of ``solver/bounds.py`` against what they bound: every game playing a
sequence's takes, CP-SAT's exact placements, the shipped optimal lines, and brute-force
or networkx references for the hall's room and the variation showcases' caps."""

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.daily import known_line, load_solved
from solver.bounds import (YEAR_BOUND, _antiquity_cap, _hall_room, _short_era_cap, _years_gap_cap, sequence_bound,
                           showcase_room, static_bound)
from solver.cards import Continent, card
from solver.deal import Deal, seeded_deal
from solver.deck import default_deck
from solver.engine import Game
from solver.notation import parse_rules
from solver.requirements import showcase_row, violation
from solver.rules import HALL_SIZE, Rules, Showcase, showcase_start
from solver.scoring import antiquity_points, short_era_points, solo_breakdown
from solver.solve import solve
from solver.state import Placed
from tests.helpers import RULE_SETS, random_game, random_plan


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS), cut=st.integers(0, 40))
def test_a_sequence_bound_holds_every_game_playing_its_takes(seed, rules, cut):
    """A random game from its start, and from a state part-way through it (at a take or at a
    place decision): the bound of the takes that follow is at least the final score."""
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    turns, final = random_plan(game, seed)
    score = solo_breakdown(game, final).total
    assert sequence_bound(game, game.initial_state(), [t.take for t in turns]) >= score
    state, split = game.initial_state(), min(cut // 2, len(turns))
    for turn in turns[:split]:
        state = game.apply_place(game.apply_take(state, turn.take), turn.place)
    rest = [t.take for t in turns[split:]]
    assert sequence_bound(game, state, rest) >= score
    if rest and cut % 2:  # the next card taken and held, waiting for its place
        assert sequence_bound(game, game.apply_take(state, rest[0]), rest[1:]) >= score


def _hall_part_way(seed, rules, played, drawn):
    """A random game's hall after ``played`` turns, and ``drawn`` cards of the deck it does not hold."""
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    turns, _ = random_plan(game, seed)
    state = game.initial_state()
    for turn in turns[:played]:
        state = game.apply_place(game.apply_take(state, turn.take), turn.place)
    rest = [c for c in default_deck().cards if c not in state.board.hall_cards]
    return game, state.board.hall, random.Random(seed).sample(rest, drawn)


def _room_by_max_flow(rules, hall, cards):
    """The most of ``cards`` the empty spots of ``hall`` take by continents, as a networkx
    maximum flow for each continent ONE CONTINENT may hold: card -> showcase (one per
    continent; white cards anywhere but in a variation showcase) -> sink (its room, at most
    what ``showcase_room`` fits where years count)."""
    layout = rules.layout
    best = 0
    for chosen in Continent:
        g = nx.DiGraph()
        for position, kind in enumerate(layout):
            row = [p for p in showcase_row(hall, position, layout) if p is not None]
            room = kind.size - len(row)
            if kind in YEAR_BOUND and room:
                room = min(room, showcase_room(rules, hall, position, cards))
            g.add_edge(("showcase", position), "sink", capacity=room)
            taken = {p.continent for p in row}
            if kind is Showcase.CONTINENT and taken - {chosen}:
                continue  # it holds another continent
            for i, c in enumerate(cards):
                g.add_edge("source", ("card", i), capacity=1)
                if c.is_white and not kind.is_variation:
                    g.add_edge(("card", i), ("showcase", position), capacity=1)
                elif kind is Showcase.CONTINENT and c.continent == chosen:
                    g.add_edge(("card", i), ("showcase", position), capacity=1)
                elif kind is not Showcase.CONTINENT and not c.is_white and c.continent not in taken:
                    g.add_edge(("card", i), ("continent", position, c.continent), capacity=1)
                    g.add_edge(("continent", position, c.continent), ("showcase", position), capacity=1)
        if "source" in g:
            best = max(best, nx.maximum_flow_value(g, "source", "sink"))
    return best


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS + ["SHORT_ERA+ANTIQUITY", "ONE_DECADE+UNIQUE_DECADES"]),
       played=st.integers(0, 19), drawn=st.integers(0, 20))
def test_the_halls_room_by_continents_is_a_maximum_flow(seed, rules, played, drawn):
    """``_hall_room`` (a smallest cut, ONE CONTINENT's cards counted through) against
    networkx's maximum flow, from a random game's hall part-way through, for cards of the
    deck it does not hold (with ONE CONTINENT beside variation showcases too, and ONE
    DECADE's room by its years in both)."""
    game, hall, cards = _hall_part_way(seed, rules, played, drawn)
    assert _hall_room(game.rules, hall, cards) == _room_by_max_flow(game.rules, hall, cards)


def _room_by_brute_force(rules, hall, position, cards):
    """The most of ``cards`` that showcase ``position`` of ``hall`` takes, over every set of
    its coloured cards on every choice of its empty spots (years ascending left to right),
    each card checked by the engine's requirement as it is put down; white cards, where
    the showcase takes them, counted as fitting."""
    kind, start = rules.layout[position], showcase_start(position)
    free = [start + i for i in range(kind.size) if hall[start + i] is None]
    coloured = sorted((c for c in cards if not c.is_white), key=lambda c: c.year)
    most = 0
    for k in range(1, len(free) + 1):
        for chosen in itertools.combinations(coloured, k):
            for spots in itertools.combinations(free, k):
                row = list(hall)
                for flat, c in zip(spots, chosen):
                    placed = Placed(c, c.continent, c.year)
                    if violation(rules, [row], 0, flat, placed) is not None:
                        break
                    row[flat] = placed
                else:
                    most = k
    whites = 0 if kind.is_variation else sum(1 for c in cards if c.is_white)
    return min(len(free), most + whites)


YEARS_TIED = (Showcase.ERA, Showcase.SPREAD_THE_YEARS, Showcase.LINKS, Showcase.ONE_DECADE, Showcase.UNIQUE_DECADES)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["base", "SPREAD_THE_YEARS+ONE_DECADE+UNIQUE_DECADES", "LINKS",
                                                          "LINKS+ONE_DECADE"]),
       played=st.integers(0, 16), drawn=st.integers(0, 12))
def test_a_showcases_room_is_the_most_cards_its_years_fit(seed, rules, played, drawn):
    """``showcase_room`` against every arrangement tried by brute force, in each showcase
    whose requirement ties years (``_hall_room`` asks it of ONE DECADE only), from a random
    game's hall part-way through."""
    game, hall, cards = _hall_part_way(seed, rules, played, drawn)
    for position, kind in enumerate(game.layout):
        if kind in YEARS_TIED:
            assert showcase_room(game.rules, hall, position, cards) == _room_by_brute_force(game.rules, hall, position, cards)


def test_one_decades_room_is_its_decades_most_continents():
    """ONE DECADE takes four cards only from one decade of four continents: three of the
    1920s and two of the 1930s, of five continents in all, fill three of its spots; the
    base ONE ERA takes four of them, but only two cards 14 years apart each."""
    empty = (None,) * HALL_SIZE
    position = Showcase.ONE_DECADE.position
    cards = [card(code) for code in ("1921OC", "1924SA", "1927AF", "1931AS", "1935EU")]
    assert showcase_room(parse_rules("ONE_DECADE"), empty, position, cards) == 3
    assert showcase_room(parse_rules("ONE_DECADE"), empty, position, cards + [card("1939NA"), card("1945")]) == 3
    assert showcase_room(Rules(), empty, position, cards) == 4  # ONE ERA: 1924-1935, at most 10 years a spot
    spread = [card(code) for code in ("1921OC", "1935SA", "1949AF", "1963AS")]
    assert showcase_room(Rules(), empty, position, spread) == 2  # 14 years apart: a spot between each two


def test_the_halls_room_counts_one_continents_cards_and_white_cards():
    empty = (None,) * HALL_SIZE
    americans = [card(f"19{10 + i}NA") for i in range(8)]
    assert _hall_room(Rules(), empty, americans) == 7  # one a showcase, three in ONE CONTINENT
    assert _hall_room(Rules(), empty, americans + [card("1945")]) == 8
    links = parse_rules("LINKS")  # ONE CONTINENT covered: one a showcase
    assert _hall_room(links, empty, americans) == 5


def test_the_halls_room_may_leave_one_continents_card_out_of_it_for_a_white_card():
    """Every showcase full but ONE CONTINENT (empty) and one spot of SHORT ERA, which a white
    card may not take: three North American cards and the 1945 card fill all four spots
    only with one of them in SHORT ERA and the white card in ONE CONTINENT."""
    rules = parse_rules("SHORT_ERA+ANTIQUITY")
    placed = [Placed(card(code), card(code).continent, card(code).year) for code in
              ("1901OC 1902SA 1903AF 1904AS 1905EU 1906NA "  # GENERAL
               "1910OC 1912SA 1914AF - "  # SHORT ERA, its last spot empty
               "- - - 1920OC 1930SA 1950EU").split() if code != "-"]  # ONE CONTINENT empty, ANTIQUITY, MID
    hall = tuple(placed[:9]) + (None,) * 4 + tuple(placed[9:])
    cards = [card("1915NA"), card("1960NA"), card("1970NA"), card("1945")]
    assert _hall_room(rules, hall, cards) == _room_by_max_flow(rules, hall, cards) == 4


def test_the_years_gap_bound_pairs_two_continents():
    """The oldest and the newest card are both North American: the widest pair of two
    continents leaves 1990 outside, one market card."""
    owned = [card("1901NA"), card("1999NA"), card("1950EU")]
    market = [card("1902AS"), card("1903AS"), card("1990AS")]
    assert _years_gap_cap(owned, market) == 400
    assert _years_gap_cap(owned + [card("1945")], market) == 400  # 1901-1945 leaves 1990 outside too
    assert _years_gap_cap(owned + [card("1995EU")], market) == 500  # 1901-1995: none outside


@settings(max_examples=200, deadline=None)
@given(picked=st.lists(st.integers(0, 100), min_size=0, max_size=40, unique=True), owned_share=st.integers(1, 39))
def test_the_short_era_and_antiquity_bounds_are_the_best_showcases_of_the_owned_cards(picked, owned_share):
    """Each bound equals its item's best over every showcase the owned cards can fill (years
    ascending, continents apart, no white card), counted against the market left."""
    cards = [default_deck().cards[i] for i in picked]
    owned, market = cards[:owned_share], cards[owned_share:]
    market_years = [c.year for c in market if c.year is not None]
    coloured = sorted((c for c in owned if not c.is_white), key=lambda c: c.year)

    def best(size, points):
        return max((points(row) for row in itertools.combinations(coloured, size)
                    if len({c.continent for c in row}) == size), default=0)

    assert _short_era_cap(owned, market) == best(4, lambda row: short_era_points(row[0].year, row[-1].year, market_years))
    assert _antiquity_cap(owned, market) == best(2, lambda row: antiquity_points(row[-1].year, market_years))


@pytest.mark.parametrize("seed", range(12))
def test_a_sequence_bound_holds_its_best_placement_and_is_at_most_the_static_bound(seed):
    game, takes, _ = random_game(seed, RULE_SETS[seed % len(RULE_SETS)])
    start = game.initial_state()
    sequence = [t.take for t in solve(game, takes=takes).plan]
    best = solve(game, takes=takes, stop_early=True)
    assert static_bound(game) >= sequence_bound(game, start, sequence) >= best.score


def test_a_sequence_bound_holds_the_shipped_optimal_lines_from_each_of_their_states():
    """Proven optimal lines score near every item's cap, so a bound that overstates nothing
    but cuts one item too tight fails here (random games score far below it). Every tenth
    shipped daily puzzle (all rule sets), from each state along its line."""
    for entry in sorted(load_solved().values(), key=lambda e: e.id)[::10]:
        game, line = known_line(entry)
        state = game.initial_state()
        for t, turn in enumerate(line.plan):
            takes = [u.take for u in line.plan[t:]]
            assert sequence_bound(game, state, takes) >= entry.target, (entry.date, t)
            held = game.apply_take(state, turn.take)
            assert sequence_bound(game, held, takes[1:]) >= entry.target, (entry.date, t, "held")
            state = game.apply_place(held, turn.place)
