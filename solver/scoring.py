"""Scoring (RULES.md sections 6-7): solo (x100, integers) and multi-player fame points.

Every item is computed from printed values only: white cards never count for continents,
Einstein never counts for years, the 1945 card counts as the year 1945. The market at the
end of the game holds the *available cards* of the solo scoring items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.cards import Card
from solver.engine import ALL_CONTINENTS, Game
from solver.requirements import showcase_row
from solver.rules import Showcase
from solver.state import Board, State

SOLO_FACTOR = 100
RANK_POINTS = (5, 4, 3, 2, 1)

# Breakdown keys, in display order. Negative items are penalties.
SOLO_ITEMS = (
    "all_continents", "continent_focus", "decades", "chain", "years_gap", "mid_century",
    "short_era", "antiquity", "secret_decade", "empty_spots", "depot",
)


@dataclass(frozen=True)
class Breakdown:
    """Score items in display order; ``total`` is their sum."""

    items: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(v for _, v in self.items)

    def as_dict(self) -> dict[str, int]:
        return dict(self.items)


# ------------------------------------------------------------- hall measures
def continent_focus(cards: Sequence[Card]) -> int:
    """Number of cards of the most frequent printed continent (whites excluded)."""
    counts: dict = {}
    for c in cards:
        if c.continent is not None:
            counts[c.continent] = counts.get(c.continent, 0) + 1
    return max(counts.values(), default=0)


def decade_count(cards: Sequence[Card]) -> int:
    return len({c.decade for c in cards if c.decade is not None})


def longest_chain(cards: Sequence[Card]) -> int:
    """Longest run of consecutive printed years; at least 1 (RULES.md: minimum 1)."""
    years = {c.year for c in cards if c.year is not None}
    best = 1
    for y in years:
        if y - 1 not in years:
            run = 1
            while y + run in years:
                run += 1
            best = max(best, run)
    return best


def has_all_continents(cards: Sequence[Card]) -> bool:
    return {c.continent for c in cards} >= ALL_CONTINENTS


def mid_century_card(game: Game, board: Board) -> Card | None:
    """The card in MID CENTURY, None if empty or Einstein (both score nothing)."""
    row = showcase_row(board.hall, 4, game.layout)
    return row[0].card if row[0] is not None and not row[0].card.is_einstein else None


def row_cards(game: Game, board: Board, kind: Showcase) -> list[Card] | None:
    """The cards of showcase ``kind`` if it is in force and full, else None."""
    if kind not in game.layout:
        return None
    row = showcase_row(board.hall, kind.position, game.layout)
    return None if any(p is None for p in row) else [p.card for p in row]


def secret_decade_hits(cards: Sequence[Card], decade: int | None) -> int:
    return 0 if decade is None else sum(1 for c in cards if c.decade == decade)


def years_gap_points(left: int, right: int, market_years: Sequence[int]) -> int:
    """Solo YEARS GAP (x100) of a full showcase with the years ``left`` and ``right``: 5 less
    one for each available card older than the left one or newer than the right one."""
    outside = sum(1 for y in market_years if y < left or y > right)
    return SOLO_FACTOR * max(0, 5 - outside)


def short_era_points(left: int, right: int, market_years: Sequence[int]) -> int:
    """Solo SHORT ERA (x100) of a full showcase from the year ``left`` to ``right``: 5 less
    one for each available card strictly between them."""
    inside = sum(1 for y in market_years if left < y < right)
    return SOLO_FACTOR * max(0, 5 - inside)


def antiquity_points(right: int, market_years: Sequence[int]) -> int:
    """Solo ANTIQUITY (x100) of a full showcase whose right card has the year ``right``: 5
    less one for each available card older than it."""
    older = sum(1 for y in market_years if y < right)
    return SOLO_FACTOR * max(0, 5 - older)


# ---------------------------------------------------------------------- solo
def solo_breakdown(game: Game, state: State, player: int = 0) -> Breakdown:
    """The solo score (x100) with one item per scoring rule, for the state as it stands."""
    board = state.players[player]
    cards = board.hall_cards
    market_years = [c.year for c in state.market_cards if c.year is not None]
    items = {
        "all_continents": SOLO_FACTOR if has_all_continents(cards) else 0,
        "continent_focus": SOLO_FACTOR * continent_focus(cards),
        "decades": SOLO_FACTOR * decade_count(cards),
        "chain": SOLO_FACTOR * longest_chain(cards),
        "years_gap": 0,
        "mid_century": 0,
        "short_era": 0,
        "antiquity": 0,
        "secret_decade": SOLO_FACTOR * secret_decade_hits(cards, game.rules.secret_decade),
        "empty_spots": -SOLO_FACTOR * board.empty_spots,
        "depot": -SOLO_FACTOR * len(board.depot),
    }
    mid = mid_century_card(game, board)
    if mid is not None:
        items["mid_century"] = SOLO_FACTOR - 2 * abs(mid.year - 1950)
    gap = row_cards(game, board, Showcase.GAP)
    if gap is not None and not any(c.is_einstein for c in gap):
        items["years_gap"] = years_gap_points(gap[0].year, gap[1].year, market_years)
    short = row_cards(game, board, Showcase.SHORT_ERA)
    if short is not None:
        items["short_era"] = short_era_points(short[0].year, short[-1].year, market_years)
    antiquity = row_cards(game, board, Showcase.ANTIQUITY)
    if antiquity is not None:
        items["antiquity"] = antiquity_points(antiquity[-1].year, market_years)
    return Breakdown(tuple((k, items[k]) for k in SOLO_ITEMS))


# -------------------------------------------------------------- multi-player
def rank_points(values: Sequence[float | None]) -> list[int]:
    """Dense ranking, best (smallest) value first: 5, 4, 3, 2, 1 fp; None takes no rank (0)."""
    distinct = sorted({v for v in values if v is not None})
    return [0 if v is None else (RANK_POINTS[distinct.index(v)] if distinct.index(v) < len(RANK_POINTS) else 0) for v in values]


@dataclass(frozen=True)
class PlayerResult:
    breakdown: Breakdown
    mid_distance: int | None  # tie-breaker: |MID CENTURY year - 1950|, None ranks last


def multi_results(game: Game, state: State, secret_decades: Sequence[int | None] | None = None) -> list[PlayerResult]:
    """Fame points per player (not x100). ``secret_decades`` gives each player's secret decade."""
    boards = state.players
    secret = list(secret_decades) if secret_decades is not None else [None] * len(boards)
    six = rank_points([b.six_round for b in boards])

    def gap_value(b: Board) -> float | None:
        row = row_cards(game, b, Showcase.GAP)
        return None if row is None or any(c.is_einstein for c in row) else -(row[1].year - row[0].year)

    def short_value(b: Board) -> float | None:
        row = row_cards(game, b, Showcase.SHORT_ERA)
        return None if row is None else row[-1].year - row[0].year

    def antiquity_value(b: Board) -> float | None:
        row = row_cards(game, b, Showcase.ANTIQUITY)
        return None if row is None else row[-1].year

    gap = rank_points([gap_value(b) for b in boards])
    short = rank_points([short_value(b) for b in boards])
    antiquity = rank_points([antiquity_value(b) for b in boards])
    results = []
    for i, b in enumerate(boards):
        cards = b.hall_cards
        items = (
            ("all_continents", six[i]),
            ("continent_focus", continent_focus(cards)),
            ("decades", decade_count(cards)),
            ("chain", longest_chain(cards)),
            ("years_gap", gap[i]),
            ("short_era", short[i]),
            ("antiquity", antiquity[i]),
            ("secret_decade", secret_decade_hits(cards, secret[i])),
            ("empty_spots", -b.empty_spots),
            ("depot", -len(b.depot)),
        )
        mid = mid_century_card(game, b)
        results.append(PlayerResult(Breakdown(items), None if mid is None else abs(mid.year - 1950)))
    return results


def winners(results: Sequence[PlayerResult]) -> list[int]:
    """Players with the most fp; ties broken by MID CENTURY closest to 1950; still equal: shared."""
    best = max(r.breakdown.total for r in results)
    tied = [i for i, r in enumerate(results) if r.breakdown.total == best]
    distances = [results[i].mid_distance for i in tied]
    known = [d for d in distances if d is not None]
    if not known:
        return tied
    return [i for i in tied if results[i].mid_distance == min(known)]
