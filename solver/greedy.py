"""A greedy solo player: each turn, the take and placement with the best immediate score.

It is the fallback that makes ``solve`` never come back empty-handed, and the myopic
baseline that smarter players are measured against.
"""

from __future__ import annotations

from solver.engine import Game
from solver.moves import Place, Turn
from solver.scoring import solo_breakdown
from solver.state import State


def greedy_place(game: Game, state: State) -> Place:
    """The placement of the held card whose resulting state scores best right now."""
    return max(game.place_options(state), key=lambda place: solo_breakdown(game, game.apply_place(state, place, check=False)).total)


def greedy_turn(game: Game, state: State) -> Turn:
    """The turn whose resulting state scores best right now (ties: the first found)."""
    best, best_value = None, None
    for take in game.legal_takes(state):
        after = game.apply_take(state, take, check=False)
        for place in game.place_options(after):
            value = solo_breakdown(game, game.apply_place(after, place, check=False)).total
            if best_value is None or value > best_value:
                best, best_value = Turn(take, place), value
    return best


def greedy_plan(game: Game, state: State | None = None) -> list[Turn]:
    """A whole solo game played greedily from the start, or from ``state`` at a take decision."""
    state, plan = state or game.initial_state(), []
    while not state.is_over:
        turn = greedy_turn(game, state)
        plan.append(turn)
        state = game.apply_turn(state, turn, check=False)
    return plan
