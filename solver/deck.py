"""Decks: the 101 cards with their subjects, from the shipped default or a user's CSV file.

A deck file is CSV with the columns ``year,continent,subject``: exactly one row per
year 1900-1999, the 1945 row with an empty continent (it is the white card).
Lines starting with ``#`` are comments. Einstein is always added.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from solver.cards import EINSTEIN, FIRST_YEAR, LAST_YEAR, WHITE_YEAR, Card, Continent
from solver.errors import CardError, DeckError


@dataclass(frozen=True)
class Deck:
    """The 101 cards in canonical order (years ascending, Einstein last) and their subjects."""

    cards: tuple[Card, ...]
    subjects: dict[int, str]

    def subject(self, c: Card) -> str:
        return "Albert Einstein" if c.is_einstein else self.subjects.get(c.year, "")

    def card_of_year(self, year: int) -> Card:
        return self.cards[year - FIRST_YEAR]


def parse_deck(text: str, source: str = "deck") -> Deck:
    """Parse deck CSV text; errors name the line and the problem."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise DeckError(f"{source}: empty deck file")
    by_year: dict[int, tuple[Card, str]] = {}
    header_seen = False
    for number, line in lines:
        row = next(csv.reader(io.StringIO(line)))
        if not header_seen and row and row[0].strip().lower() == "year":
            header_seen = True
            continue
        where = f"{source} line {number}"
        if len(row) < 2:
            raise DeckError(f"{where}: expected 'year,continent,subject', got {line.strip()!r}")
        year_text, continent_text = row[0].strip(), row[1].strip()
        subject = ",".join(row[2:]).strip()
        try:
            year = int(year_text)
        except ValueError:
            raise DeckError(f"{where}: year {year_text!r} is not a number") from None
        if not FIRST_YEAR <= year <= LAST_YEAR:
            raise DeckError(f"{where}: year {year} is outside 1900-1999")
        if year in by_year:
            raise DeckError(f"{where}: a second card for the year {year} (exactly one card per year)")
        if year == WHITE_YEAR:
            if continent_text and continent_text.upper() not in ("WHITE", "W"):
                raise DeckError(f"{where}: the 1945 card is white; leave its continent empty, not {continent_text!r}")
            by_year[year] = (Card(year, None), subject)
            continue
        try:
            continent = Continent.parse(continent_text)
        except CardError:
            raise DeckError(f"{where}: continent {continent_text!r} is not one of OC SA AF AS EU NA") from None
        by_year[year] = (Card(year, continent), subject)
    missing = [y for y in range(FIRST_YEAR, LAST_YEAR + 1) if y not in by_year]
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
        raise DeckError(f"{source}: no card for the year(s) {shown} (exactly one card per year)")
    cards = tuple(by_year[y][0] for y in range(FIRST_YEAR, LAST_YEAR + 1)) + (EINSTEIN,)
    return Deck(cards, {y: s for y, (_, s) in by_year.items()})


def load_deck(path: str | Path) -> Deck:
    """Read a deck CSV file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"cannot read deck file {path}: {exc.strerror}") from None
    return parse_deck(text, str(path))


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The project's own default deck (not the publisher's list), shipped in solver/data."""
    text = resources.files("solver").joinpath("data/default_deck.csv").read_text(encoding="utf-8")
    return parse_deck(text, "default_deck.csv")
