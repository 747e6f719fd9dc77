"""The turn's phases, end conditions and multi-player turn order, on fixed deals."""

import pytest

from solver.cards import card, Continent
from solver.deal import Deal, parse_cards
from solver.engine import Game
from solver.errors import IllegalMoveError
from solver.moves import DEPOT, END, Declaration, Place, Take, Turn
from solver.rules import Rules, showcase_start, Showcase

# 18 market cards (OC SA AF AS EU NA columns of three), then the stock top first.
MARKET = "1901SA 1950EU 1930AF  1902OC 1903AF 1904AS  1905EU 1906NA 1907OC  1908SA 1909AF 1910AS  1911OC 1912SA 1913AF  1914EU 1915AS 1916AF"
STOCK = "1945 EIN 1920OC 1921SA 1922AF 1923AS 1924EU 1925NA 1926OC 1927SA 1928AF 1929AS 1931EU 1932NA 1933OC 1934SA 1935AF 1936AS 1937EU"
DEAL = Deal(parse_cards((MARKET + " " + STOCK).split()))


def game(rules=Rules(), players=1):
    if players > 1:
        from solver.deal import seeded_deal

        return Game(Deal(seeded_deal(3).cards, rules), players)
    return Game(Deal(DEAL.cards, rules), players)


def spot(showcase: Showcase, number: int) -> int:
    return showcase_start(showcase.position) + number - 1


def test_initial_market_sorted_and_vehicle_on_oc():
    s = game().initial_state()
    assert [c.code for c in s.market[0]] == ["1901SA", "1930AF", "1950EU"]
    assert s.board.vehicle == Continent.OC
    assert s.holding is None and s.drawn == 0


def test_take_moves_vehicle_and_refills_the_column():
    g = game()
    s = g.initial_state()
    assert {t.card.code for t in g.legal_takes(s)} == {"1901SA", "1930AF", "1950EU"}
    s = g.apply_take(s, Take(card("1930AF")))
    assert s.board.vehicle == Continent.AF
    assert [c.code for c in s.market[0]] == ["1901SA", "1945", "1950EU"]  # stock top 1945 refills OC
    assert s.holding == card("1930AF") and s.drawn == 1


def test_take_outside_vehicle_column_is_illegal():
    g = game()
    with pytest.raises(IllegalMoveError, match="not in the OC column"):
        g.check_take(g.initial_state(), Take(card("1902OC")))


def test_white_card_needs_to_and_goes_there():
    g = game()
    s = g.apply_turn(g.initial_state(), Turn(Take(card("1930AF")), Place(spot(Showcase.GENERAL, 5))))
    # vehicle on AF: 1905EU 1906NA 1907OC -> take 1907OC, go to OC column which now holds 1945
    s = g.apply_turn(s, Turn(Take(card("1907OC")), Place(spot(Showcase.GENERAL, 1))))
    with pytest.raises(IllegalMoveError, match='needs "to"'):
        g.check_take(s, Take(card("1945")))
    takes = [t for t in g.legal_takes(s) if t.card.is_white]
    assert len(takes) == 6  # one per column
    s = g.apply_take(s, Take(card("1945"), Continent.NA))
    assert s.board.vehicle == Continent.NA
    with pytest.raises(IllegalMoveError, match="declare"):
        g.check_place(s, Place(spot(Showcase.MID, 1)))
    # 1945 declared OC clashes with 1907OC in GENERAL
    with pytest.raises(IllegalMoveError, match="different continents"):
        g.check_place(s, Place(spot(Showcase.GENERAL, 6), Declaration(Continent.OC)))
    with pytest.raises(IllegalMoveError, match="ascending"):
        g.check_place(s, Place(spot(Showcase.GENERAL, 3), Declaration(Continent.EU)))
    places = g.legal_places(s)
    assert Place(spot(Showcase.GENERAL, 6), Declaration(Continent.EU)) in places
    assert Place(spot(Showcase.GENERAL, 6), Declaration(Continent.OC)) not in places


def test_depot_limit_and_end_only_without_a_legal_spot():
    g = game()
    s = g.initial_state()
    s = g.apply_take(s, Take(card("1950EU")))
    with pytest.raises(IllegalMoveError, match="END while GENERAL:1 is legal"):
        g.check_place(s, Place(END))
    s = g.apply_place(s, Place(DEPOT))
    assert s.board.depot == (card("1950EU"),) and not s.is_over
    s = g.apply_turn(s, Turn(Take(card("1911OC")), Place(DEPOT)))
    s = g.apply_turn(s, Turn(Take(card("1901SA")), Place(DEPOT)))
    s = g.apply_take(s, g.legal_takes(s)[0])
    with pytest.raises(IllegalMoveError, match="depot already holds 3"):
        g.check_place(s, Place(DEPOT))
    assert Place(DEPOT) not in g.legal_places(s)


def test_depot_full_ends_game_option():
    g = game(Rules(depot_full_ends_game=True))
    s = g.initial_state()
    for code in ("1950EU", "1911OC", "1901SA"):
        assert not s.is_over
        s = g.apply_turn(s, Turn(Take(card(code)), Place(DEPOT)))
    assert s.is_over and s.turn == 3


def test_end_when_nothing_fits():
    # Fill GENERAL with six continents and MID with a card, then a card that fits nowhere.
    from solver.notation import parse_state

    full = "1901OC.1902SA.1903AF.1904AS.1905EU.1906NA,1990OC.1991SA.1992AF.1993AS,1950EU._._,1940OC.1998SA,1960NA"
    s, rules = parse_state(f"base/1994NA.1995AF.1996EU,-,-,-,-,-/t9r10p0d0/OC:{full}:1910OC.1911OC.1912OC:-")
    g = game(rules)
    s = g.apply_take(s, Take(card("1995AF")))
    assert g.legal_places(s) == [Place(END)]
    s = g.apply_place(s, Place(END))
    assert s.is_over and s.board.discarded == card("1995AF")


def test_hall_full_ends_game_and_game_over_refuses_moves():
    from solver.notation import parse_state

    almost = "1901OC.1902SA.1903AF.1904AS.1905EU.1906NA,1990OC.1991SA.1992AF.1993AS,1950EU.1951EU._,1940OC.1949SA,1960NA"
    s, rules = parse_state(f"base/1999EU.1910AF.1920AS,-,-,-,-,-/t15r16p0d0/OC:{almost}:-:-")
    g = game(rules)
    s = g.apply_turn(s, Turn(Take(card("1999EU")), Place(spot(Showcase.CONTINENT, 3))))
    assert s.is_over
    assert g.legal_takes(s) == []
    with pytest.raises(IllegalMoveError, match="over"):
        g.check_take(s, Take(card("1910AF")))


def test_empty_vehicle_column_allows_any_column():
    from solver.notation import parse_state

    s, rules = parse_state("base/-,1950EU,-,-,-,1960AS/t0r1p0d0/OC:_._._._._._,_._._._,_._._,_._,_:-:-")
    g = game(rules)
    assert {t.card.code for t in g.legal_takes(s)} == {"1950EU", "1960AS"}


def test_multi_player_turn_order_rounds_and_vehicles():
    g = game(players=3)
    s = g.initial_state()
    assert [b.vehicle for b in s.players] == [0, 1, 2]
    for expected_player in (0, 1, 2, 0):
        assert s.current == expected_player
        take = g.legal_takes(s)[0]
        s = g.apply_take(s, take)
        s = g.apply_place(s, Place(DEPOT))
    assert s.round == 2 and s.turn == 4


def test_game_needs_one_to_five_players_and_full_deal():
    from solver.errors import RulesError

    with pytest.raises(RulesError, match="1 to 5"):
        Game(DEAL, 6)
    with pytest.raises(RulesError, match="full deal"):
        Game(DEAL, 2)
