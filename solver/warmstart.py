"""A quick good plan to start CP-SAT from (a *warm start*).

CP-SAT proves well but, on the whole game, finds good plans slowly: after one second its
best is often 500-700 points under the optimum. This module finds a strong plan in a
fraction of that time, in two steps:

1. a beam search over take sequences (market dynamics only, no placement), ranking
   partial sequences by the *potential* of the cards taken: the solo score items that
   depend on the card set alone (decades, continent focus, chain, all six continents, the
   best MID CENTURY card) plus a reward per card up to the 16 hall spots;
2. the exact placement of the best sequence by the CP-SAT model with the takes fixed and
   the game free to stop after any of them (``solve(..., takes, stop_early=True)``, done
   in ``solver/solve.py``).

The plan is replayed by the engine like every other and handed to the whole-game model as
a solution hint (``add_plan_hint``), from which CP-SAT's local search improves quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.cards import Card, Continent
from solver.engine import Game, market_column
from solver.moves import DEPOT, END, Take
from solver.rules import HALL_SIZE, showcase_of
from solver.scoring import continent_focus, decade_count, longest_chain
from solver.state import State

if TYPE_CHECKING:
    from solver.model import SoloModel
    from solver.solve import Solution

BEAM_WIDTH = 100
CARD_REWARD = 60  # per card up to the 16 hall spots: filling the hall is worth about this much
FOCUS_MAX = 7  # one card of a continent per showcase, three in ONE CONTINENT


def potential(cards: list[Card]) -> int:
    """What a card set promises, from the items that depend on the set alone (x100)."""
    six = len({c.continent for c in cards if c.continent is not None}) == len(Continent)
    mid = max((100 - 2 * abs(c.year - 1950) for c in cards if c.year is not None and not c.is_white), default=0)
    items = decade_count(cards) + min(FOCUS_MAX, continent_focus(cards)) + longest_chain(cards) + six
    return 100 * items + mid + CARD_REWARD * min(len(cards), HALL_SIZE)


def beam_takes(game: Game, state: State, turns: int, width: int = BEAM_WIDTH) -> list[Take]:
    """The most promising sequence of ``turns`` takes from ``state`` (its held card, if any,
    counts as taken): a beam search over the market dynamics, ranked by ``potential``."""
    stock = game.deal.stock[state.drawn:]
    owned = tuple(state.board.hall_cards) + ((state.holding,) if state.holding is not None else ())
    beam = [(state.market, state.board.vehicle, owned, ())]
    for t in range(turns):
        children = {}
        for market, vehicle, taken, takes in beam:
            column = market[vehicle]
            for c in column:
                rest = [x for x in column if x != c] + ([stock[t]] if t < len(stock) else [])
                after = market[:vehicle] + (market_column(rest),) + market[vehicle + 1 :]
                for to in (Continent if c.is_white else (c.continent,)):
                    key = (after, int(to), frozenset(taken + (c,)))
                    if key not in children:  # the same market, vehicle and cards: one is enough
                        children[key] = (after, int(to), taken + (c,), takes + (Take(c, to if c.is_white else None),))
        if not children:
            break
        beam = sorted(children.values(), key=lambda node: -potential(list(node[2])))[:width]
    return list(beam[0][3])


def add_plan_hint(h: SoloModel, solution: Solution) -> None:
    """Hint every take, turn and placement variable of the model with ``solution``'s plan."""
    index = {c: i for i, c in enumerate(h.cards) if i not in h.fixed}
    placed = [(h.held, solution.place)] if h.held is not None and solution.place is not None else []
    taken_at = {}
    for t, turn in enumerate(solution.plan):
        taken_at[t] = index[turn.take.card]
        placed.append((index[turn.take.card], turn.place))
    for (t, i), x in h.take.items():
        h.model.add_hint(x, taken_at.get(t) == i)
    for t, active in enumerate(h.active):
        if not isinstance(active, int):
            h.model.add_hint(active, t in taken_at)
    target = {i: place.target for i, place in placed}
    for (i, p), v in h.shelf.items():
        if i not in h.fixed:
            h.model.add_hint(v, isinstance(target.get(i), int) and showcase_of(target[i])[0] == p)
    for i in h.depot:
        h.model.add_hint(h.depot[i], target.get(i) == DEPOT)
        h.model.add_hint(h.end[i], target.get(i) == END)
