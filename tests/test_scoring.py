"""Hand-computed solo and multi-player scores, one board per scoring item."""

from solver.scoring import longest_chain, multi_results, rank_points, solo_breakdown, winners
from solver.cards import card
from tests.helpers import EMPTY_HALL, board

RULES_EXAMPLE_HALL = (
    "1901OC.1915SA.1932AF.1955AS.1977EU.1990NA,1961AF.1962EU.1963NA.1970OC,"
    "1920EU.1938EU.1985EU,1908EU.1996AS,1947EU"
)


def score(**kwargs):
    game, state = board(**kwargs)
    return solo_breakdown(game, state).as_dict()


def test_rules_example_scores_2594():
    # RULES.md section 6: focus 7, decades 10, chain 3, all six, gap 5, MID 1947, one depot card.
    game, state = board(hall=RULES_EXAMPLE_HALL, market="1910OC,1950SA,-,-,-,1995NA", depot="1999NA")
    b = solo_breakdown(game, state)
    assert b.as_dict() == {
        "all_continents": 100, "continent_focus": 700, "decades": 1000, "chain": 300, "years_gap": 500,
        "mid_century": 94, "short_era": 0, "antiquity": 0, "secret_decade": 0, "empty_spots": 0, "depot": -100,
    }
    assert b.total == 2594


def test_years_gap_counts_market_cards_outside_and_ignores_einstein():
    hall = "_._._._._._,_._._._,_._._,1930EU.1960AS,_"
    # outside [1930, 1960]: 1901, 1929, 1961, 1999 -> 4; 1930 and 1945 inside; EIN never counts.
    b = score(hall=hall, market="1901OC.1929SA.1930AF,1945.1961NA.EIN,1999EU,-,-,-")
    assert b["years_gap"] == 100
    b = score(hall=hall, market="1901OC.1902SA.1903AF,1904NA.1905EU.1906AS,-,-,-,-")
    assert b["years_gap"] == 0  # six outside: max(0, 5 - 6)


def test_years_gap_needs_both_spots_and_no_einstein():
    assert score(hall="_._._._._._,_._._._,_._._,1930EU._,_")["years_gap"] == 0
    assert score(hall="_._._._._._,_._._._,_._._,1930EU.EIN=AF1960,_")["years_gap"] == 0
    # the 1945 card counts with its year in the gap
    assert score(hall="_._._._._._,_._._._,_._._,1945=AF.1960EU,_", market="1950OC,-,-,-,-,-")["years_gap"] == 500


def test_mid_century():
    assert score(hall="_._._._._._,_._._._,_._._,_._,1950EU")["mid_century"] == 100
    assert score(hall="_._._._._._,_._._._,_._._,_._,1999EU")["mid_century"] == 2
    assert score(hall="_._._._._._,_._._._,_._._,_._,1945=AF")["mid_century"] == 90
    assert score(hall="_._._._._._,_._._._,_._._,_._,EIN=AF1950")["mid_century"] == 0
    assert score(hall=EMPTY_HALL)["mid_century"] == 0


def test_focus_decades_chain_ignore_white_values():
    hall = "1944EU.1945=EU.1946AS.EIN=NA1947._._,_._._._,_._._,_._,_"
    b = score(hall=hall)
    assert b["continent_focus"] == 100  # EU once, AS once; whites never count
    assert b["decades"] == 100  # 1940s only; Einstein's declared year never counts
    assert b["chain"] == 300  # 1944-1945-1946: the 1945 card's year is real
    assert b["all_continents"] == 0
    assert b["empty_spots"] == -1200


def test_chain_minimum_is_one():
    assert score(hall=EMPTY_HALL)["chain"] == 100
    assert longest_chain([card("1901OC"), card("1903SA")]) == 1
    assert longest_chain([card("1901OC"), card("1902SA"), card("1903AF"), card("1990NA"), card("1991EU")]) == 3


def test_all_continents_needs_printed_colours():
    five_and_white = "1901OC.1902SA.1903AF.1904AS.1905EU.1945=NA,_._._._,_._._,_._,_"
    assert score(hall=five_and_white)["all_continents"] == 0
    six = "1901OC.1902SA.1903AF.1904AS.1905EU.1906NA,_._._._,_._._,_._,_"
    assert score(hall=six)["all_continents"] == 100


def test_penalties():
    b = score(hall="1901OC._._._._._,_._._._,_._._,_._,_", depot="1902SA.1903AF")
    assert b["empty_spots"] == -1500
    assert b["depot"] == -200


def test_secret_decade():
    hall = "1940OC.1945=AF.1949SA.EIN=NA1941._._,_._._._,_._._,_._,_"
    assert score(hall=hall, rules="SD4")["secret_decade"] == 300  # Einstein excluded, 1945 counts
    assert score(hall=hall)["secret_decade"] == 0


def test_short_era_solo():
    hall = "_._._._._._,1950OC.1955SA.1958AF.1960AS,_._._,_._,_"
    # strictly between 1950 and 1960: 1951, 1959 -> 2; 1950 and 1960 themselves do not count
    b = score(hall=hall, rules="SHORT_ERA", market="1951EU.1959NA.1950SA,1960NA,-,-,-,-")
    assert b["short_era"] == 300
    # not full: 0
    assert score(hall="_._._._._._,1950OC.1955SA.1958AF._,_._._,_._,_", rules="SHORT_ERA")["short_era"] == 0


def test_antiquity_replaces_years_gap_scoring():
    hall = "_._._._._._,_._._._,_._._,1905OC.1910SA,_"
    b = score(hall=hall, rules="ANTIQUITY", market="1901EU.1909NA.1911AS,-,-,-,-,-")
    assert b["antiquity"] == 300  # older than 1910: 1901, 1909
    assert b["years_gap"] == 0
    b = score(hall=hall, rules="UNIQUE_DECADES", market="1901EU.1909NA.1911AS,-,-,-,-,-")
    assert b["years_gap"] == 0 and b["antiquity"] == 0


def test_rank_points_dense():
    assert rank_points([3, 3, 3, 5, 7]) == [5, 5, 5, 4, 3]
    assert rank_points([None, 1, 2]) == [0, 5, 4]
    assert rank_points([1, 2, 3, 4, 5, 6]) == [5, 4, 3, 2, 1, 0]


def test_multi_player_scores_and_tie_breaker():
    from dataclasses import replace

    from solver.notation import parse_state
    from tests.helpers import game_for

    hall_a = "1901OC.1902SA.1903AF.1904AS.1905EU.1906NA,_._._._,_._._,1920OC.1980SA,1951AF"
    hall_b = "1911OC.1912SA.1913AF.1914AS.1915EU.1916NA,_._._._,_._._,1930OC.1960SA,1940NA"
    text = f"base/-,-,-,-,-,-/t30r16p0d0/OC:{hall_a}:-:s3x/SA:{hall_b}:1999EU:s3x"
    state, rules = parse_state(text)
    game = game_for(rules, players=2)
    results = multi_results(game, state)
    a, b = (r.breakdown.as_dict() for r in results)
    assert a["all_continents"] == b["all_continents"] == 5  # same round: shared
    assert a["years_gap"] == 5 and b["years_gap"] == 4  # 60 years beats 30
    assert a["chain"] == 6 and b["chain"] == 6
    assert a["empty_spots"] == -7 and b["depot"] == -1
    assert a["continent_focus"] == 2 and a["decades"] == 4  # OC twice; 1900s 1920s 1950s 1980s
    assert results[0].breakdown.total == 5 + 2 + 4 + 6 + 5 - 7
    assert results[1].breakdown.total == 5 + 2 + 4 + 6 + 4 - 7 - 1
    assert winners(results) == [0]
    # equal totals (14 each): MID CENTURY closest to 1950 wins (1951 beats 1940)
    tied = replace(state, players=(replace(state.players[0], depot=(card("1998EU"),)), replace(state.players[1], depot=())))
    results = multi_results(game, tied)
    assert results[0].breakdown.total == results[1].breakdown.total == 14
    assert winners(results) == [0]
