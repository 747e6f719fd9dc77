"""Text renderings of markets, halls and score breakdowns (tabulate for tables)."""

from __future__ import annotations

from tabulate import tabulate

from solver.cards import Card, Continent
from solver.deck import Deck
from solver.engine import Game
from solver.hints import Option
from solver.requirements import showcase_row
from solver.scoring import Breakdown
from solver.state import State


def market_table(state: State, deck: Deck, fmt: str) -> str:
    """The six market columns side by side, the vehicle's column marked with *."""
    headers = [Continent(i).name + ("*" if state.board.vehicle == i else "") for i in range(6)]
    depth = max((len(col) for col in state.market), default=0)
    rows = [[col[r].code if r < len(col) else "" for col in state.market] for r in range(depth)]
    table = tabulate(rows, headers=headers, tablefmt="github" if fmt == "table" else "plain")
    if fmt != "table":
        return table
    subjects = [[f"{c.code}: {deck.subject(c)}" for c in col] for col in state.market]
    lines = [f"{Continent(i).name}: " + "; ".join(s) for i, s in enumerate(subjects)]
    return table + "\n\n" + "\n".join(lines)


def hall_text(game: Game, state: State, player: int = 0) -> str:
    board = state.players[player]
    lines = []
    for position, kind in enumerate(game.layout):
        row = showcase_row(board.hall, position, game.layout)
        lines.append(f"{kind.name:<17}" + " ".join(f"{p.code if p else '_':<10}" for p in row).rstrip())
    lines.append(f"{'DEPOT':<17}" + (" ".join(c.code for c in board.depot) or "-"))
    return "\n".join(lines)


def breakdown_text(breakdown: Breakdown, fmt: str) -> str:
    rows = [[name, value] for name, value in breakdown.items] + [["total", breakdown.total]]
    return tabulate(rows, headers=["item", "score"], tablefmt="github" if fmt == "table" else "plain")


def card_codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def value_precision(option: Option, mode: str) -> str:
    """How far a hint's value can be trusted: its standard error over the sampled stock
    orders (hidden stock), or, with the deal known, ``exact`` when the solve proved it and
    otherwise the proven bound (the value is then only what the budget found)."""
    if mode == "hidden":
        return f"±{option.stderr:.0f}"
    return "exact" if option.exact else f"≤{option.bound}"
