"""Card codes, the shipped deck, deck files, deal files, seeded deals, the deal notation."""

import json
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from solver.cards import EINSTEIN, WHITE_1945, Continent, card
from solver.deal import deal_from_json, load_deal, seeded_deal
from solver.deck import default_deck, parse_deck
from solver.errors import CardError, DealError, DeckError
from solver.notation import format_deal, parse_deal
from solver.rules import Rules, Showcase
from solver.shuffle import SplitMix64, shuffled


def test_card_codes():
    assert card("1903na") == card("1903NA")
    assert card("1903NA").continent is Continent.NA and card("1903NA").year == 1903
    assert card("1945") is WHITE_1945 and card("ein") is EINSTEIN
    for bad in ("1903", "1945EU", "1899NA", "2000NA", "1903XX", "EINSTEIN", ""):
        with pytest.raises(CardError):
            card(bad)


@given(st.sampled_from(default_deck().cards))
def test_card_code_round_trip(c):
    assert card(c.code) == c and card(c.code.lower()) == c


def test_default_deck_is_balanced():
    deck = default_deck()
    assert len(deck.cards) == 101 and deck.cards[-1] is EINSTEIN
    assert [c.year for c in deck.cards[:100]] == list(range(1900, 2000))
    counts = Counter(c.continent for c in deck.cards if c.continent is not None)
    assert set(counts) == set(Continent) and set(counts.values()) <= {16, 17} and sum(counts.values()) == 99
    assert deck.card_of_year(1945) == WHITE_1945
    assert all(deck.subject(c) for c in deck.cards)


def test_deck_file_errors_name_the_line():
    rows = ["year,continent,subject"] + [f"{y},{'' if y == 1945 else 'EU'},x" for y in range(1900, 2000)]
    parse_deck("\n".join(rows))
    with pytest.raises(DeckError, match="line 4: a second card for the year 1901"):
        parse_deck("\n".join(rows[:2] + ["1901,SA,dup"] + rows[2:]))
    bad = list(rows)
    bad[5] = "1904,XX,bad"
    with pytest.raises(DeckError, match="line 6: continent 'XX'"):
        parse_deck("\n".join(bad))
    bad = list(rows)
    bad[46] = "1945,EU,not white"
    with pytest.raises(DeckError, match="line 47: the 1945 card is white"):
        parse_deck("\n".join(bad))
    with pytest.raises(DeckError, match="no card for the year"):
        parse_deck("\n".join(rows[:-1]))


def test_seeded_deal_is_stable_across_machines_and_versions():
    # Golden: SplitMix64 + Fisher-Yates; these must never change (daily puzzles rely on it).
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    assert [c.code for c in seeded_deal(1).cards[:5]] == ["1967AF", "1997AS", "1924AF", "1936EU", "1961EU"]
    assert sorted(shuffled(range(10), 3)) == list(range(10))
    assert seeded_deal(1) == seeded_deal(1) and seeded_deal(1) != seeded_deal(2)


def test_deal_file_errors_name_the_token(tmp_path):
    codes = [c.code for c in seeded_deal(3).cards]
    assert len(deal_from_json({"deal": codes[:37]}).cards) == 37
    with pytest.raises(DealError, match="card 2: unknown card '1999ZZ'"):
        deal_from_json({"deal": [codes[0], "1999ZZ"] + codes[2:]})
    with pytest.raises(DealError, match="card 5: .* duplicate"):
        deal_from_json({"deal": codes[:4] + [codes[0]] + codes[5:]})
    with pytest.raises(DealError, match="second Einstein"):
        ein_at = codes.index("EIN")
        deal_from_json({"deal": ["EIN"] + [c for c in codes if c != "EIN"][:ein_at] + ["EIN"] + codes[ein_at + 1 :]})
    with pytest.raises(DealError, match="36 cards"):
        deal_from_json({"deal": codes[:36]})
    with pytest.raises(DealError, match="card 42: '1903SA' repeats the year of 1903NA"):
        deal_from_json({"deal": [c for c in codes if not c.startswith("1903")][:40] + ["1903NA", "1903SA"]})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(DealError, match="malformed JSON at line 1"):
        load_deal(bad)


def test_deal_file_rules(tmp_path):
    codes = [c.code for c in seeded_deal(3).cards]
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"deal": codes, "rules": {"variations": ["short_era", "LINKS"], "secret_decade": 4}}))
    deal = load_deal(path)
    assert deal.rules == Rules(frozenset({Showcase.SHORT_ERA, Showcase.LINKS}), 4, False)
    spelled = deal_from_json({"deal": codes, "rules": {"variations": ["Short Era", "spread-the-years"]}})
    assert spelled.rules.variations == {Showcase.SHORT_ERA, Showcase.SPREAD_THE_YEARS}  # as RULES.md writes them
    for rules, message in (
        ({"variations": ["LINKS", "SPREAD_THE_YEARS"]}, "both cover CONTINENT"),
        ({"variations": ["NOPE"]}, "unknown variation 'NOPE'"),
        ({"secret_decade": 12}, "outside 0-9"),
        ({"depot_full_ends_game": "yes"}, "true or false"),
        ({"variations": ["ERA"]}, "base showcase"),
    ):
        with pytest.raises(Exception, match=message):
            deal_from_json({"deal": codes, "rules": rules})


@given(st.integers(0, 2**32), st.sets(st.sampled_from(["SHORT_ERA", "LINKS", "ANTIQUITY"])), st.none() | st.integers(0, 9),
       st.booleans(), st.integers(37, 101))
def test_deal_notation_round_trip(seed, variations, decade, dfe, length):
    from dataclasses import replace

    rules = Rules(frozenset(Showcase[v] for v in variations), decade, dfe)
    deal = replace(seeded_deal(seed, rules), cards=seeded_deal(seed).cards[:length])
    text = format_deal(deal)
    assert parse_deal(text) == deal
    assert format_deal(parse_deal(text)) == text
