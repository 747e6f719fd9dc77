"""Arrange a set of cards in one showcase: spots and white-card declarations.

The CP-SAT model decides *which* cards go in each showcase; this module finds *where*
(spot by spot) with the rules engine's own requirement check, so the engine stays the
referee. Because requirements are monotone, a set that can be arranged legally can be
built up in any order of arrival.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from solver.cards import Card
from solver.engine import declarations
from solver.moves import Declaration
from solver.requirements import violation
from solver.rules import Rules, showcase_start
from solver.state import EMPTY_HALL, Placed

Arrangement = dict[Card, tuple[int, Declaration | None]]
Hall = tuple[Placed | None, ...]


def _placements(c: Card) -> Iterator[tuple[Placed, Declaration | None]]:
    if not c.is_white:
        yield Placed(c, c.continent, c.year), None
        return
    for d in declarations(c):
        yield Placed(c, d.continent, d.year if c.is_einstein else c.year), d


def _orders(cards: list[Card]) -> Iterator[list[Card]]:
    """Left-to-right orders worth trying: by year, with Einstein at every rank."""
    dated = sorted((c for c in cards if not c.is_einstein), key=lambda c: c.year)
    if len(dated) == len(cards):
        yield dated
        return
    einstein = next(c for c in cards if c.is_einstein)
    for rank in range(len(dated) + 1):
        yield dated[:rank] + [einstein] + dated[rank:]


def arrangements(rules: Rules, position: int, cards: list[Card], hall: Hall = EMPTY_HALL,
                 pinned: dict[Card, int] | None = None) -> Iterator[Arrangement]:
    """Every legal arrangement (spots, declarations) of ``cards`` on the empty spots of
    showcase ``position`` beside the cards already in ``hall``; ``pinned`` cards only on
    their given spot."""
    start = showcase_start(position)
    empty = [f for f in range(start, start + rules.layout[position].size) if hall[f] is None]
    if len(cards) > len(empty):
        return
    pinned = pinned or {}
    for order in _orders(cards):
        for spots in combinations(empty, len(order)):
            todo = list(zip(order, spots))
            if all(pinned.get(c, flat) == flat for c, flat in todo):
                yield from _assign(rules, list(hall), todo, {})


def _assign(rules: Rules, hall: list, todo: list[tuple[Card, int]], done: Arrangement) -> Iterator[Arrangement]:
    if not todo:
        yield dict(done)
        return
    (c, flat), rest = todo[0], todo[1:]
    for placed, declaration in _placements(c):
        if violation(rules, [hall], 0, flat, placed) is None:
            hall[flat] = placed
            done[c] = (flat, declaration)
            yield from _assign(rules, hall, rest, done)
            del done[c]
            hall[flat] = None


def fits_somewhere(rules: Rules, position: int, arrangement: Arrangement, c: Card, hall: Hall = EMPTY_HALL) -> bool:
    """Whether ``c`` has a legal empty spot in this showcase, as arranged beside ``hall``."""
    hall = list(hall)
    for card, (flat, declaration) in arrangement.items():
        hall[flat] = Placed(card, declaration.continent if declaration else card.continent,
                            declaration.year if declaration and declaration.year is not None else card.year)
    start = showcase_start(position)
    for flat in range(start, start + rules.layout[position].size):
        if hall[flat] is None and any(violation(rules, [hall], 0, flat, p) is None for p, _ in _placements(c)):
            return True
    return False


def arrange(rules: Rules, position: int, cards: list[Card], blocking: Card | None = None, hall: Hall = EMPTY_HALL,
            pinned: dict[Card, int] | None = None) -> Arrangement | None:
    """A legal arrangement of ``cards`` in the showcase beside ``hall``; with ``blocking``, one
    in which that card fits no empty spot (what END needs). None if there is none."""
    for arrangement in arrangements(rules, position, cards, hall, pinned):
        if blocking is None or not fits_somewhere(rules, position, arrangement, blocking, hall):
            return arrangement
    return None
