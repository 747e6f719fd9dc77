"""Every placement requirement on hand-made showcases (RULES.md sections 4 and 7)."""

import pytest

from solver.cards import card, Continent
from solver.notation import parse_state
from solver.requirements import violation
from solver.rules import Rules, showcase_start, Showcase
from solver.state import Placed


def hall(text: str, players_extra: tuple[str, ...] = (), rules: str = "base"):
    players = "/".join([f"OC:{text}:-:-"] + [f"SA:{t}:-:-" for t in players_extra])
    state, parsed = parse_state(f"{rules}/-,-,-,-,-,-/t0r1p0d0/{players}")
    return parsed, [b.hall for b in state.players]


def placed(code: str, continent: str | None = None, year: int | None = None) -> Placed:
    c = card(code)
    return Placed(c, Continent[continent] if continent else c.continent, year if year is not None else c.year)


def spot(showcase: Showcase, number: int) -> int:
    return showcase_start(showcase.position) + number - 1


def check(text, showcase, number, p, rules="base", others=()):
    parsed, halls = hall(text, others, rules)
    return violation(parsed, halls, 0, spot(showcase, number), p)


E = "_._._._._._,_._._._,_._._,_._,_"


def test_ascending_years_both_sides():
    h = "_.1920OC._.1960SA._._,_._._._,_._._,_._,_"
    assert check(h, Showcase.GENERAL, 3, placed("1940AF")) is None
    assert "ascending" in check(h, Showcase.GENERAL, 1, placed("1930AF"))
    assert "ascending" in check(h, Showcase.GENERAL, 3, placed("1970AF"))
    assert "ascending" in check(h, Showcase.GENERAL, 5, placed("1950AF"))
    assert check(h, Showcase.GENERAL, 6, placed("1999AF")) is None


def test_different_continents_and_filled_spot():
    h = "_.1920OC._._._._,_._._._,_._._,_._,_"
    assert "different continents" in check(h, Showcase.GENERAL, 3, placed("1940OC"))
    assert "already filled" in check(h, Showcase.GENERAL, 2, placed("1921SA"))
    # a white card counts as its declared continent
    assert "different continents" in check(h, Showcase.GENERAL, 3, placed("1945", "OC"))
    assert check(h, Showcase.GENERAL, 3, placed("1945", "AF")) is None


def test_one_continent():
    h = "_._._._._._,_._._._,1930EU._._,_._,_"
    assert check(h, Showcase.CONTINENT, 2, placed("1950EU")) is None
    assert "ONE CONTINENT" in check(h, Showcase.CONTINENT, 2, placed("1950AS"))
    assert check(h, Showcase.CONTINENT, 3, placed("1945", "EU")) is None
    # multi-player: another player already shows EU there
    assert "player 2" in check(E, Showcase.CONTINENT, 1, placed("1950EU"), others=("_._._._._._,_._._._,_.1910EU._,_._,_",))
    assert check(E, Showcase.CONTINENT, 1, placed("1950AS"), others=("_._._._._._,_._._._,_.1910EU._,_._,_",)) is None


@pytest.mark.parametrize(
    "era, number, year, ok",
    [
        ("1950OC._._._", 2, 1960, True),  # neighbours: at most 10
        ("1950OC._._._", 2, 1961, False),
        ("1950OC._._._", 3, 1970, True),  # one empty spot between: at most 20
        ("1950OC._._._", 3, 1971, False),
        ("1950OC._._._", 4, 1980, True),  # two empty spots between: at most 30
        ("1950OC._._._", 4, 1981, False),
        ("1950OC._._.1980SA", 2, 1959, False),  # 1959 -> 1980 is 21 over 2 spots (limit 20)
        ("1950OC._._.1980SA", 2, 1960, True),
        ("1950OC._._.1980SA", 3, 1970, True),
        ("1950OC._._.1980SA", 3, 1965, False),  # 15 years to 1980 on the next spot
        ("1950OC._._.1980SA", 3, 1969, False),  # 1950 -> 1969 is 19 over 2 spots fine, 1969 -> 1980 fine... see below
    ],
)
def test_one_era_gap_rule_with_empty_spots_between(era, number, year, ok):
    h = f"_._._._._._,{era},_._._,_._,_"
    continent = "AF" if year != 1969 else "AS"
    p = Placed(card(f"{year}{continent}"), Continent[continent], year)
    result = check(h, Showcase.ERA, number, p)
    if year == 1969:
        # 1969 on spot 3: 19 years over 2 spots from 1950 (<= 20) and 11 over 1 spot to 1980 (> 10)
        assert "ONE ERA" in result
    else:
        assert (result is None) == ok, result


def test_era_uses_einstein_declared_year():
    h = "_._._._._._,1950OC._._._,_._._,_._,_"
    assert check(h, Showcase.ERA, 2, placed("EIN", "AF", 1960)) is None
    assert "ONE ERA" in check(h, Showcase.ERA, 2, placed("EIN", "AF", 1961))


def test_spread_the_years():
    h = "_._._._._._,_._._._,1920OC._._,_._,_"
    r = "SPREAD_THE_YEARS"
    assert check(h, Showcase.SPREAD_THE_YEARS, 2, placed("1940SA"), r) is None
    assert "SPREAD" in check(h, Showcase.SPREAD_THE_YEARS, 2, placed("1939SA"), r)
    assert check(h, Showcase.SPREAD_THE_YEARS, 3, placed("1960SA"), r) is None  # 1 empty between: >= 40
    assert "SPREAD" in check(h, Showcase.SPREAD_THE_YEARS, 3, placed("1959SA"), r)
    assert "white" in check(h, Showcase.SPREAD_THE_YEARS, 3, placed("1945", "SA"), r)
    assert "different continents" in check(h, Showcase.SPREAD_THE_YEARS, 3, placed("1990OC"), r)


def test_links_adjacent_spots_only():
    r = "LINKS"
    h = "_._._._._._,_._._._,1920OC._._,_._,_"
    assert check(h, Showcase.LINKS, 2, placed("1925SA"), r) is None  # 5 years apart
    assert "LINKS" in check(h, Showcase.LINKS, 2, placed("1926SA"), r)
    assert check(h, Showcase.LINKS, 3, placed("1990SA"), r) is None  # spot 3 is not adjacent to spot 1
    h2 = "_._._._._._,_._._._,1920OC._.1923SA,_._,_"
    assert check(h2, Showcase.LINKS, 2, placed("1921AF"), r) is None
    h3 = "_._._._._._,_._._._,1920OC._.1930SA,_._,_"
    assert check(h3, Showcase.LINKS, 2, placed("1925AF"), r) is None  # 5 and 5
    assert "LINKS" in check(h3, Showcase.LINKS, 2, placed("1924AF"), r)  # 6 to the right, other continent
    # RULES.md: different continents applies to variation showcases, so LINKS' "same continent"
    # branch can never be used: the general requirement refuses the card first.
    assert "different continents" in check(h3, Showcase.LINKS, 2, placed("1924SA"), r)


def test_one_decade():
    r = "ONE_DECADE"
    h = "_._._._._._,1951OC._._._,_._._,_._,_"
    assert check(h, Showcase.ONE_DECADE, 4, placed("1959SA"), r) is None
    assert "ONE DECADE" in check(h, Showcase.ONE_DECADE, 4, placed("1960SA"), r)


def test_unique_decades_solo_and_multi():
    r = "UNIQUE_DECADES"
    assert check(E, Showcase.UNIQUE_DECADES, 1, placed("1944OC"), r) is None
    assert "not allowed" in check(E, Showcase.UNIQUE_DECADES, 1, placed("1960OC"), r)
    h = "_._._._._._,_._._._,_._._,1944OC._,_"
    assert "already in your" in check(h, Showcase.UNIQUE_DECADES, 2, placed("1948SA"), r)
    assert check(h, Showcase.UNIQUE_DECADES, 2, placed("1950SA"), r) is None
    other = "_._._._._._,_._._._,_._._,1931AF._,_"
    assert "player 2" in check(E, Showcase.UNIQUE_DECADES, 1, placed("1935OC"), r, others=(other,))
    assert check(E, Showcase.UNIQUE_DECADES, 1, placed("1965OC"), r, others=(other,)) is None  # 2 players: 1930s-1960s


def test_rules_reject_two_variations_on_one_showcase():
    from solver.errors import RulesError

    with pytest.raises(RulesError, match="both cover CONTINENT"):
        Rules(frozenset({Showcase.LINKS, Showcase.SPREAD_THE_YEARS}))
    with pytest.raises(RulesError, match="outside 0-9"):
        Rules(secret_decade=10)
