"""Plan files and replay: a plan is the list of turns of a solo game, checked by the engine.

``{"plan": [{"take": "1903NA", "place": "ERA:2"}, ...]}``; see :mod:`solver.moves`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solver.engine import Game
from solver.errors import ExhibitionError, IllegalMoveError, PlanError
from solver.jsonfile import read_json
from solver.moves import Place, Turn, turn_from_json
from solver.rules import Showcase
from solver.scoring import Breakdown, solo_breakdown
from solver.state import State


def plan_from_json(data: object, layout: tuple[Showcase, ...]) -> list[Turn]:
    if not isinstance(data, dict) or not isinstance(data.get("plan"), list):
        raise PlanError('a plan file is a JSON object with a "plan" list of moves')
    turns = []
    for number, move in enumerate(data["plan"], 1):
        try:
            turns.append(turn_from_json(move, layout))
        except PlanError as exc:
            raise PlanError(f"turn {number}: {exc}") from None
    return turns


def plan_to_json(turns: list[Turn], layout: tuple[Showcase, ...]) -> dict:
    return {"plan": [t.to_json(layout) for t in turns]}


def load_plan(path: str | Path, layout: tuple[Showcase, ...]) -> list[Turn]:
    data = read_json(path, "plan", PlanError)
    try:
        return plan_from_json(data, layout)
    except ExhibitionError as exc:
        raise PlanError(f"plan file {path}: {exc}") from None


@dataclass(frozen=True)
class Replay:
    """The outcome of a replayed solo plan: every state, the final one, and its score."""

    states: tuple[State, ...]
    breakdown: Breakdown

    @property
    def final(self) -> State:
        return self.states[-1]

    @property
    def score(self) -> int:
        return self.breakdown.total

    @property
    def turns(self) -> int:
        return self.final.turn


def replay(game: Game, turns: list[Turn], require_end: bool = True, state: State | None = None,
           place: Place | None = None) -> Replay:
    """Play ``turns`` from the start, or from ``state`` after placing its held card at ``place``;
    an illegal move raises with its turn number and rule."""
    state = state or game.initial_state()
    states = [state]
    if place is not None:
        try:
            state = game.apply_place(state, place)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"placing the held card: {exc}") from None
        states.append(state)
    for number, turn in enumerate(turns, 1):
        if state.is_over:
            raise IllegalMoveError(f"turn {number}: the game is already over after turn {number - 1}")
        try:
            state = game.apply_turn(state, turn)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"turn {number}: {exc}") from None
        states.append(state)
    if require_end and not state.is_over:
        raise IllegalMoveError(
            f"the plan stops after turn {len(turns)} but the game is not over (fill all 16 spots, or END with a card that fits nowhere)"
        )
    return Replay(tuple(states), solo_breakdown(game, state))
