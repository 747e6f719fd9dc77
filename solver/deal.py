"""Deals: the card order (top card first) plus the rules in force, and the deal file format.

A deal file is JSON ``{"deal": ["1903NA", "1945", "EIN", ...], "rules": {...}}``. A solo
deal needs its first 37 cards (18 market + 19 stock); a full deal has all 101. The JSON
that ``exhibition deal --format json`` prints is a deal file too: the views of the deal it
adds (``DEAL_VIEWS``) are accepted and not read, the ``deal`` list being the deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from solver.cards import Card, card
from solver.deck import Deck, default_deck
from solver.errors import CardError, DealError, ExhibitionError
from solver.jsonfile import read_json
from solver.rules import MARKET_SIZE, Rules
from solver.shuffle import shuffled

SOLO_TURNS_MAX = 19  # 16 hall spots + 3 depot cards
SOLO_DEAL_MIN = MARKET_SIZE + SOLO_TURNS_MAX  # 37
FULL_DEAL = 101
DEAL_VIEWS = frozenset({"market", "stock_top", "state", "notation"})  # what `exhibition deal` adds


@dataclass(frozen=True)
class Deal:
    """A card order, top card first, and the rules the game is played with."""

    cards: tuple[Card, ...]
    rules: Rules = field(default_factory=Rules)

    @property
    def market(self) -> tuple[Card, ...]:
        return self.cards[:MARKET_SIZE]

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.cards[MARKET_SIZE:]

    def to_json(self) -> dict:
        return {"deal": [c.code for c in self.cards], "rules": self.rules.to_json()}


def parse_cards(tokens: list[object], minimum: int = SOLO_DEAL_MIN) -> tuple[Card, ...]:
    """Parse card codes into a valid deal order; errors name the bad token."""
    cards: list[Card] = []
    seen: dict[Card, int] = {}
    years: dict[int, Card] = {}
    for position, token in enumerate(tokens, 1):
        if not isinstance(token, str):
            raise DealError(f"deal card {position}: {token!r} is not a card code")
        try:
            c = card(token)
        except CardError as exc:
            raise DealError(f"deal card {position}: {exc}") from None
        if c in seen:
            what = "a second Einstein" if c.is_einstein else "a duplicate card"
            raise DealError(f"deal card {position}: {token!r} is {what} (first at card {seen[c]})")
        if c.year is not None and c.year in years:
            raise DealError(f"deal card {position}: {token!r} repeats the year of {years[c.year].code} (one card per year)")
        seen[c] = position
        if c.year is not None:
            years[c.year] = c
        cards.append(c)
    if len(cards) < minimum:
        raise DealError(f"deal has {len(cards)} cards; a solo deal needs at least {minimum} (18 market + 19 stock)")
    if len(cards) > FULL_DEAL:
        raise DealError(f"deal has {len(cards)} cards; a full deal has {FULL_DEAL}")
    return tuple(cards)


def deal_from_json(data: object) -> Deal:
    """Build a Deal from the parsed JSON of a deal file."""
    if not isinstance(data, dict) or "deal" not in data:
        raise DealError('a deal file is a JSON object with a "deal" list of card codes')
    if not isinstance(data["deal"], list):
        raise DealError('"deal" must be a list of card codes')
    unknown = set(data) - {"deal", "rules"} - DEAL_VIEWS
    if unknown:
        raise DealError(f'unknown key "{sorted(unknown)[0]}" in the deal file')
    return Deal(parse_cards(data["deal"]), Rules.from_json(data.get("rules")))


def load_deal(path: str | Path) -> Deal:
    """Read a deal file; any problem raises an ExhibitionError naming it."""
    data = read_json(path, "deal", DealError)
    try:
        return deal_from_json(data)
    except ExhibitionError as exc:
        raise type(exc)(f"deal file {path}: {exc}") from None


def seeded_deal(seed: int, rules: Rules | None = None, deck: Deck | None = None) -> Deal:
    """The deal of ``--seed N``: the deck's 101 cards shuffled, the same on every machine."""
    deck = deck or default_deck()
    return Deal(tuple(shuffled(deck.cards, seed)), rules or Rules())
