"""Descriptive puzzle IDs: the deal, the rules and the mode spelled out, stable forever.

    x20.open.base.22F38F97A12A40S84F10F76E85O05A30S95A19F27N71N08N15O29N...
    x20.blind.SHORT_ERA+SD4.<cards>

Fields, joined by ``.``:

1. ``x20``: the format version (a later format gets a new tag; this one is read forever);
2. the mode: ``open`` (the whole stock order is shown) or ``blind`` (the stock is hidden);
3. the rules, in the rules notation of ``solver/notation.py`` (``base``, ``LINKS+SD4+DFE``);
4. the first 37 cards of the deal, top card first (all a solo game can ever see), three
   characters each: the year's last two digits and the continent's letter (``O`` Oceania,
   ``S`` South America, ``F`` Africa, ``A`` Asia, ``E`` Europe, ``N`` North America),
   ``45W`` for the white 1945 card and ``EIN`` for Einstein.

The ID carries the colours of its cards, so it needs no deck file.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.cards import EINSTEIN, WHITE_1945, Card, Continent
from solver.deal import SOLO_DEAL_MIN, Deal, parse_cards
from solver.errors import ExhibitionError, NotationError
from solver.notation import format_rules, parse_rules

VERSION = "x20"
MODES = ("open", "blind")
LETTERS = {Continent.OC: "O", Continent.SA: "S", Continent.AF: "F", Continent.AS: "A", Continent.EU: "E", Continent.NA: "N"}
CONTINENT_OF = {letter: continent for continent, letter in LETTERS.items()}


@dataclass(frozen=True)
class Puzzle:
    """A solo puzzle: a deal (its rules included) and a mode."""

    deal: Deal
    mode: str

    @property
    def id(self) -> str:
        return format_id(self)


def _card_token(c: Card) -> str:
    if c.is_einstein:
        return "EIN"
    if c.is_white:
        return "45W"
    return f"{c.year % 100:02d}{LETTERS[c.continent]}"


def _card_of(token: str, position: int) -> Card:
    if token == "EIN":
        return EINSTEIN
    if token == "45W":
        return WHITE_1945
    if len(token) != 3 or not token[:2].isdigit() or token[2] not in CONTINENT_OF:
        raise NotationError(f"puzzle ID card {position}: {token!r} is not <2 digits><O|S|F|A|E|N>, 45W or EIN")
    return Card(1900 + int(token[:2]), CONTINENT_OF[token[2]])


def format_id(puzzle: Puzzle) -> str:
    cards = "".join(_card_token(c) for c in puzzle.deal.cards[:SOLO_DEAL_MIN])
    return f"{VERSION}.{puzzle.mode}.{format_rules(puzzle.deal.rules)}.{cards}"


def parse_id(text: str) -> Puzzle:
    """The puzzle an ID spells; a bad ID raises NotationError naming the bad part."""
    fields = text.strip().split(".")
    if len(fields) != 4:
        raise NotationError(f"a puzzle ID is {VERSION}.<mode>.<rules>.<cards> (4 fields joined by '.'), got {len(fields)}")
    version, mode, rules_text, cards_text = fields
    if version != VERSION:
        raise NotationError(f"puzzle ID version {version!r} is not {VERSION!r}")
    if mode not in MODES:
        raise NotationError(f"puzzle ID mode {mode!r} is not open or blind")
    try:
        rules = parse_rules(rules_text)
    except ExhibitionError as exc:
        raise NotationError(f"puzzle ID rules: {exc}") from None
    if len(cards_text) != 3 * SOLO_DEAL_MIN:
        raise NotationError(f"puzzle ID cards: {SOLO_DEAL_MIN} cards of 3 characters are {3 * SOLO_DEAL_MIN} characters, "
                            f"not {len(cards_text)}")
    cards = [_card_of(cards_text[i : i + 3], i // 3 + 1) for i in range(0, len(cards_text), 3)]
    try:
        checked = parse_cards([c.code for c in cards])
    except ExhibitionError as exc:
        raise NotationError(f"puzzle ID cards: {exc}") from None
    return Puzzle(Deal(checked, rules), mode)
