"""Moves: a turn is a *take* (card, and where a white card sends the vehicle) then a *place*.

The plan file format (one JSON object per turn)::

    {"take": "1903NA", "place": "ERA:2"}
    {"take": "1945", "to": "EU", "place": "GENERAL:3", "declare": {"continent": "AF"}}
    {"take": "EIN", "to": "OC", "place": "DEPOT"}

``place`` is ``SHOWCASE:SPOT`` (spots counted from 1 at the left), ``DEPOT`` or ``END``.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.cards import FIRST_YEAR, LAST_YEAR, Card, Continent, card
from solver.errors import CardError, PlanError, RulesError
from solver.rules import Showcase, showcase_start, spot_name

DEPOT = "DEPOT"
END = "END"


@dataclass(frozen=True)
class Take:
    """Take ``card``; ``to`` is the column a white card sends the vehicle to."""

    card: Card
    to: Continent | None = None

    def __str__(self) -> str:
        return self.card.code + (f">{self.to.name}" if self.to is not None else "")


@dataclass(frozen=True)
class Declaration:
    """What a white card counts as for requirements: a continent, and for Einstein a year."""

    continent: Continent
    year: int | None = None

    def to_json(self) -> dict:
        out: dict = {"continent": self.continent.name}
        if self.year is not None:
            out["year"] = self.year
        return out


@dataclass(frozen=True)
class Place:
    """Put the held card on flat hall spot ``target`` (0-15), or ``DEPOT``, or ``END`` the game."""

    target: int | str
    declare: Declaration | None = None

    @property
    def is_spot(self) -> bool:
        return isinstance(self.target, int)

    def name(self, layout: tuple[Showcase, ...]) -> str:
        return spot_name(layout, self.target) if self.is_spot else str(self.target)


@dataclass(frozen=True)
class Turn:
    """A whole turn, as one line of a plan."""

    take: Take
    place: Place

    def to_json(self, layout: tuple[Showcase, ...]) -> dict:
        out: dict = {"take": self.take.card.code}
        if self.take.to is not None:
            out["to"] = self.take.to.name
        out["place"] = self.place.name(layout)
        if self.place.declare is not None:
            out["declare"] = self.place.declare.to_json()
        return out


def parse_target(text: object, layout: tuple[Showcase, ...]) -> int | str:
    """``ERA:2`` -> flat spot index; ``DEPOT`` / ``END`` as they are."""
    if not isinstance(text, str):
        raise PlanError(f'"place" must be a string like "ERA:2", "DEPOT" or "END", not {text!r}')
    upper = text.strip().upper()
    if upper in (DEPOT, END):
        return upper
    name, sep, number = upper.partition(":")
    if not sep or not number.isdigit():
        raise PlanError(f'place {text!r} is not SHOWCASE:SPOT, DEPOT or END')
    try:
        showcase = Showcase.parse(name)
    except RulesError as exc:
        raise PlanError(f"place {text!r}: {exc}") from None
    if showcase not in layout:
        in_force = layout[showcase.position].name
        raise PlanError(f"place {text!r}: {showcase.name} is not in this hall (that position holds {in_force})")
    spot = int(number)
    if not 1 <= spot <= showcase.size:
        raise PlanError(f"place {text!r}: {showcase.name} has spots 1-{showcase.size}")
    return showcase_start(showcase.position) + spot - 1


def parse_declaration(data: object) -> Declaration:
    if not isinstance(data, dict) or "continent" not in data:
        raise PlanError('"declare" must be an object like {"continent": "AF"} (Einstein also "year")')
    unknown = set(data) - {"continent", "year"}
    if unknown:
        raise PlanError(f'unknown key "{sorted(unknown)[0]}" in "declare"')
    try:
        continent = Continent.parse(str(data["continent"]))
    except CardError as exc:
        raise PlanError(f'"declare": {exc}') from None
    year = data.get("year")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int) or not FIRST_YEAR <= year <= LAST_YEAR):
        raise PlanError(f'"declare": year {year!r} is not a year 1900-1999')
    return Declaration(continent, year)


def turn_from_json(data: object, layout: tuple[Showcase, ...]) -> Turn:
    """One plan entry -> Turn (shape only; legality is the engine's business)."""
    if not isinstance(data, dict):
        raise PlanError('a move is an object like {"take": "1903NA", "place": "ERA:2"}')
    unknown = set(data) - {"take", "to", "place", "declare"}
    if unknown:
        raise PlanError(f'unknown key "{sorted(unknown)[0]}" in a move')
    if "take" not in data or "place" not in data:
        raise PlanError('a move needs "take" and "place"')
    try:
        taken = card(data["take"]) if isinstance(data["take"], str) else card("")
    except CardError as exc:
        raise PlanError(f'"take": {exc}') from None
    to = None
    if data.get("to") is not None:
        try:
            to = Continent.parse(str(data["to"]))
        except CardError as exc:
            raise PlanError(f'"to": {exc}') from None
    declare = parse_declaration(data["declare"]) if data.get("declare") is not None else None
    return Turn(Take(taken, to), Place(parse_target(data["place"], layout), declare))
