"""Cards and continents: what a card *is* and its text code (RULES.md section 1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from solver.errors import CardError


class Continent(IntEnum):
    """The six continents, in the fixed order of the continents tile (= market columns)."""

    OC = 0
    SA = 1
    AF = 2
    AS = 3
    EU = 4
    NA = 5

    @classmethod
    def parse(cls, text: str) -> Continent:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise CardError(f"unknown continent {text!r} (expected one of OC SA AF AS EU NA)") from None


FIRST_YEAR = 1900
LAST_YEAR = 1999
WHITE_YEAR = 1945


@dataclass(frozen=True)
class Card:
    """One card. ``year`` is None only for Einstein; ``continent`` is None for white cards."""

    year: int | None
    continent: Continent | None

    @property
    def is_einstein(self) -> bool:
        return self.year is None

    @property
    def is_white(self) -> bool:
        return self.continent is None

    @property
    def code(self) -> str:
        if self.is_einstein:
            return "EIN"
        if self.is_white:
            return str(self.year)
        return f"{self.year}{self.continent.name}"

    @property
    def decade(self) -> int | None:
        """0 for 1900-1909 ... 9 for 1990-1999; None for Einstein (never counts)."""
        return None if self.year is None else (self.year - FIRST_YEAR) // 10

    def sort_key(self) -> tuple[int, int]:
        """Market order: ascending years, Einstein last."""
        return (1, 0) if self.year is None else (0, self.year)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"card({self.code!r})"


EINSTEIN = Card(None, None)
WHITE_1945 = Card(WHITE_YEAR, None)

_CODE = re.compile(r"^(\d{4})([A-Z]{2})?$")


def card(code: str) -> Card:
    """Parse a card code (case-insensitive): ``1903NA``, ``1945`` or ``EIN``."""
    text = code.strip().upper() if isinstance(code, str) else ""
    if text == "EIN":
        return EINSTEIN
    match = _CODE.match(text)
    if not match:
        raise CardError(f"unknown card {code!r} (expected a code like 1903NA, 1945 or EIN)")
    year = int(match.group(1))
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise CardError(f"unknown card {code!r}: year {year} is outside 1900-1999")
    if match.group(2) is None:
        if year != WHITE_YEAR:
            raise CardError(f"unknown card {code!r}: only 1945 is a white card, {year} needs a continent")
        return WHITE_1945
    if year == WHITE_YEAR:
        raise CardError(f"unknown card {code!r}: 1945 is the white card, written 1945")
    try:
        continent = Continent[match.group(2)]
    except KeyError:
        raise CardError(f"unknown card {code!r}: {match.group(2)} is not a continent (OC SA AF AS EU NA)") from None
    return Card(year, continent)
