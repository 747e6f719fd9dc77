"""Game state values: the market, each player's hall and depot, whose turn, what is held.

All values are frozen dataclasses: applying a move returns a new state.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.cards import Card, Continent
from solver.rules import HALL_SIZE


@dataclass(frozen=True)
class Placed:
    """A card on a hall spot with the continent and year it counts as for requirements.

    For a coloured card these are the printed values; for a white card the declared ones
    (the 1945 card always keeps its year 1945). Declared values never score.
    """

    card: Card
    continent: Continent
    year: int

    @property
    def code(self) -> str:
        """``1903NA``; white cards show their declaration: ``1945=AF``, ``EIN=AF1950``."""
        if self.card.is_einstein:
            return f"EIN={self.continent.name}{self.year}"
        if self.card.is_white:
            return f"{self.card.code}={self.continent.name}"
        return self.card.code


EMPTY_HALL: tuple[Placed | None, ...] = (None,) * HALL_SIZE


@dataclass(frozen=True)
class Board:
    """One player's side: vehicle column, 16 hall spots (flat, left to right by showcase), depot."""

    vehicle: int
    hall: tuple[Placed | None, ...] = EMPTY_HALL
    depot: tuple[Card, ...] = ()
    ended: bool = False
    discarded: Card | None = None  # the card removed from play when the game ended by END
    six_round: int | None = None  # round in which the hall first showed all six continents

    @property
    def hall_cards(self) -> list[Card]:
        return [p.card for p in self.hall if p is not None]

    @property
    def empty_spots(self) -> int:
        return sum(1 for p in self.hall if p is None)


@dataclass(frozen=True)
class State:
    """Everything that changes during a game.

    ``drawn`` counts the stock cards already turned into the market; ``turn`` counts
    completed turns of all players; ``holding`` is the card taken this turn and not yet
    placed (the *place* decision point), None at the *take* decision point.
    """

    market: tuple[tuple[Card, ...], ...]
    players: tuple[Board, ...]
    current: int = 0
    drawn: int = 0
    turn: int = 0
    round: int = 1
    holding: Card | None = None

    @property
    def board(self) -> Board:
        """The board of the player to move."""
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return all(b.ended for b in self.players)

    @property
    def market_cards(self) -> list[Card]:
        return [c for column in self.market for c in column]

    def visible_cards(self) -> list[Card]:
        """Every card out of the stock: market, halls, depots, removed and held cards."""
        cards = self.market_cards
        for b in self.players:
            cards += b.hall_cards + list(b.depot) + ([b.discarded] if b.discarded else [])
        if self.holding is not None:
            cards.append(self.holding)
        return cards
