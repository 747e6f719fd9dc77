"""Placement requirements (RULES.md sections 4 and 7): may this card go on this spot?

Every requirement is checked against the filled spots of the showcase. Only the new
card's nearest filled neighbours matter for the gap rules (ONE ERA, SPREAD THE YEARS),
because the rest of the showcase was already legal. All requirements are *monotone*:
if a final arrangement is legal, every subset of it is too, so the order in which its
cards arrive never matters (the solvers rely on this; tests check it).
"""

from __future__ import annotations

from typing import Sequence

from solver.rules import Rules, Showcase, showcase_of, showcase_start, spot_name
from solver.state import Placed

ERA_STEP = 10  # ONE ERA: at most 10 years per spot of distance
SPREAD_STEP = 20  # SPREAD THE YEARS: at least 20 years per spot of distance
LINKS_YEARS = 5  # LINKS: adjacent cards of different continents at most 5 years apart


def showcase_row(hall: Sequence[Placed | None], position: int, layout: tuple[Showcase, ...]) -> Sequence[Placed | None]:
    start = showcase_start(position)
    return hall[start : start + layout[position].size]


def violation(
    rules: Rules,
    halls: Sequence[Sequence[Placed | None]],
    me: int,
    flat: int,
    placed: Placed,
) -> str | None:
    """Why ``placed`` may not go on hall spot ``flat`` of player ``me``; None if it may."""
    layout = rules.layout
    position, i = showcase_of(flat)
    kind = layout[position]
    name = spot_name(layout, flat)
    row = showcase_row(halls[me], position, layout)
    if row[i] is not None:
        return f"{name} is already filled"
    if placed.card.is_white and kind.is_variation:
        return f"white cards may not be placed in the variation showcase {kind.name}"
    filled = [(j, p) for j, p in enumerate(row) if p is not None]
    for j, other in filled:
        if (j < i and other.year >= placed.year) or (j > i and other.year <= placed.year):
            side = "left" if j < i else "right"
            return f"ascending years in {kind.name}: {other.code} stands to the {side} of {name} ({placed.year})"
    if kind is Showcase.CONTINENT:
        for _, other in filled:
            if other.continent != placed.continent:
                return f"ONE CONTINENT: {kind.name} holds {other.continent.name}, not {placed.continent.name}"
        for player, hall in enumerate(halls):
            if player != me and any(p is not None and p.continent == placed.continent for p in showcase_row(hall, position, layout)):
                return f"ONE CONTINENT: player {player + 1} already shows {placed.continent.name} in ONE CONTINENT"
    else:
        for _, other in filled:
            if other.continent == placed.continent:
                return f"different continents in {kind.name}: {other.code} is {placed.continent.name} already"
    left = max((j for j, _ in filled if j < i), default=None)
    right = min((j for j, _ in filled if j > i), default=None)
    neighbours = [(j, row[j]) for j in (left, right) if j is not None]
    if kind is Showcase.ERA:
        for j, other in neighbours:
            limit = ERA_STEP * abs(i - j)
            if abs(other.year - placed.year) > limit:
                return f"ONE ERA: {other.code} and {placed.year} are more than {limit} years apart"
    elif kind is Showcase.SPREAD_THE_YEARS:
        for j, other in neighbours:
            need = SPREAD_STEP * abs(i - j)
            if abs(other.year - placed.year) < need:
                return f"SPREAD THE YEARS: {other.code} and {placed.year} are less than {need} years apart"
    elif kind is Showcase.LINKS:
        for j in (i - 1, i + 1):
            other = row[j] if 0 <= j < len(row) else None
            if other is not None and other.continent != placed.continent and abs(other.year - placed.year) > LINKS_YEARS:
                return f"LINKS: neighbour {other.code} has another continent and is more than {LINKS_YEARS} years apart"
    elif kind is Showcase.ONE_DECADE:
        for _, other in filled:
            if other.year // 10 != placed.year // 10:
                return f"ONE DECADE: {other.code} is from another decade than {placed.year}"
    elif kind is Showcase.UNIQUE_DECADES:
        decade = (placed.year - 1900) // 10
        if decade not in rules.allowed_unique_decades(len(halls)):
            allowed = " ".join(f"{1900 + 10 * d}s" for d in rules.allowed_unique_decades(len(halls)))
            return f"UNIQUE DECADES: the {1900 + 10 * decade}s are not allowed here (allowed: {allowed})"
        for player, hall in enumerate(halls):
            for other in showcase_row(hall, position, layout):
                if other is not None and (other.year - 1900) // 10 == decade:
                    whose = "your" if player == me else f"player {player + 1}'s"
                    return f"UNIQUE DECADES: the {1900 + 10 * decade}s are already in {whose} UNIQUE DECADES"
    return None
