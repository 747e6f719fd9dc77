"""Solve a solo deal (or place a known take sequence) with the CP-SAT model, then let the
rules engine replay and score the plan: the reported score is always the engine's.

``status`` is ``optimal`` only when CP-SAT's proven bound equals the engine's score.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cards import Card, Continent
from solver.engine import Game
from solver.errors import ExhibitionError, IllegalMoveError
from solver.model import SoloModel, build_solo_model
from solver.moves import DEPOT, END, Declaration, Place, Take, Turn
from solver.plan import Replay, replay
from solver.rules import HALL_SIZE


@dataclass(frozen=True)
class Solution:
    score: int  # the engine's score of the plan
    bound: int  # CP-SAT's proven upper bound
    status: str  # "optimal" | "feasible"
    plan: list[Turn]
    outcome: Replay
    seconds: float


class _Progress(cp_model.CpSolverSolutionCallback):
    """Prints the current best and bound on stderr as solutions arrive (never on stdout)."""

    def __init__(self, enabled: bool) -> None:
        super().__init__()
        self.enabled = enabled
        self.start = time.perf_counter()

    def on_solution_callback(self) -> None:
        if self.enabled:
            print(f"  {time.perf_counter() - self.start:7.2f}s  best {int(self.objective_value)}  bound {int(self.best_objective_bound)}",
                  file=sys.stderr, flush=True)


def solver_for(time_limit: float | None, workers: int = 2, seed: int = 0) -> cp_model.CpSolver:
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.random_seed = seed
    s.parameters.log_search_progress = False
    if time_limit is not None:
        s.parameters.max_time_in_seconds = time_limit
    return s


def extract_plan(h: SoloModel, solver: cp_model.CpSolver) -> list[Turn]:
    """Read takes in turn order, where each white card sent the vehicle, and each placement."""
    taken: list[int] = []
    for t in range(h.turns):
        for i in range(len(h.cards)):
            x = h.take.get((t, i))
            if x is not None and solver.boolean_value(x):
                taken.append(i)
    plan = []
    for t, i in enumerate(taken):
        c = h.cards[i]
        to = None
        if c.is_white:
            to = next((Continent(j) for j in range(6) if solver.boolean_value(h.column[t + 1, j])), Continent.OC)
        plan.append(Turn(Take(c, to), _placement(h, solver, i)))
    return plan


def _placement(h: SoloModel, solver: cp_model.CpSolver, i: int) -> Place:
    c = h.cards[i]
    for s in range(HALL_SIZE):
        x = h.spot.get((i, s))
        if x is not None and solver.boolean_value(x):
            declare = None
            if c.is_white:
                year = solver.value(h.year[s]) if c.is_einstein else None
                declare = Declaration(Continent(solver.value(h.continent[s])), year)
            return Place(s, declare)
    if solver.boolean_value(h.depot[i]):
        return Place(DEPOT)
    return Place(END)


def _end_cut(game: Game, h: SoloModel, solver: cp_model.CpSolver, plan: list[Turn]) -> bool:
    """If the plan ENDs with a card that fits a hall spot, forbid that situation and say True.

    The cut: "if this card is removed by END, then spot s is filled or its showcase differs
    from this solution's (cards, or a white card's declaration)". Whether a card fits a spot
    depends only on that showcase's content, so the cut removes only plans whose END the
    engine would refuse: the model stays a relaxation and its bound stays valid."""
    if not plan or plan[-1].place.target != END:
        return False
    state = game.initial_state()
    for turn in plan[:-1]:
        state = game.apply_turn(state, turn, check=False)
    state = game.apply_take(state, plan[-1].take, check=False)
    fit = next(iter(game.legal_spots(state, state.holding)), None)
    if fit is None:
        return False
    from solver.rules import showcase_of, showcase_start

    m = h.model
    i = h.cards.index(plan[-1].take.card)
    position, _ = showcase_of(fit.target)
    start = showcase_start(position)
    differs = []
    for a in range(start, start + game.layout[position].size):
        here = [j for j in range(len(h.cards)) if (j, a) in h.spot and solver.boolean_value(h.spot[j, a])]
        if here:
            j = here[0]
            differs.append(~h.spot[j, a])
            if h.cards[j].is_white:
                for var in (h.year[a], h.continent[a]):
                    b = m.new_bool_var("")
                    m.add(var != solver.value(var)).only_enforce_if(b)
                    differs.append(b)
        else:
            differs.extend(h.spot[j, a] for j in range(len(h.cards)) if (j, a) in h.spot)
    m.add_bool_or([~h.end[i]] + differs)
    return True


def _solve_with_cuts(game: Game, h: SoloModel, solver: cp_model.CpSolver, progress: bool,
                     deadline: float | None, require_end: bool) -> tuple[int, list[Turn], Replay | None]:
    """Solve; while the plan ENDs illegally, cut that END away and solve again."""
    while True:
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
        status = solver.solve(h.model, _Progress(progress))
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, [], None
        plan = extract_plan(h, solver)
        if _end_cut(game, h, solver, plan):
            if deadline is not None and time.perf_counter() >= deadline:
                return cp_model.UNKNOWN, [], None
            continue
        return status, plan, replay(game, plan, require_end=require_end)


def check_take_sequence(game: Game, takes: list[Card]) -> None:
    """Raise IllegalMoveError naming the first take that the market does not allow.

    A white card's vehicle goes to the column of the next take, so it never blocks it."""
    state = game.initial_state()
    if len(takes) > len(game.deal.stock) + 1 or len(takes) > 19:
        raise IllegalMoveError(f"{len(takes)} takes: a solo game has at most 19 turns")
    for number, c in enumerate(takes, 1):
        to = None
        if c.is_white:
            nxt = takes[number] if number < len(takes) else None
            after = game.take_only(state, Take(c, Continent.OC), check=False) if c in state.market_cards else None
            column = next((j for j, col in enumerate(after.market) if nxt in col), 0) if after and nxt else 0
            to = Continent(column)
        try:
            state = game.take_only(state, Take(c, to))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"take {number}: {str(exc).removeprefix('take: ')}") from None


def solve(game: Game, takes: list[Card] | None = None, time_limit: float | None = None, workers: int = 2,
          progress: bool = False, turn_limit: int | None = None) -> Solution:
    """Best plan for the deal (or for the take sequence ``takes``), replayed by the engine."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    h = build_solo_model(game, takes=takes, turn_limit=turn_limit)
    solver = solver_for(time_limit, workers)
    status, plan, outcome = _solve_with_cuts(game, h, solver, progress, deadline, turn_limit is None)
    if status == cp_model.INFEASIBLE:
        raise ExhibitionError("no legal way to play this take sequence to the end of the game" if takes
                              else "the model found no legal game (a bug: every deal has one)")
    if outcome is None:
        raise ExhibitionError("no plan found within the time limit; give more --time-limit")
    bound = int(round(solver.best_objective_bound))
    score = outcome.score
    if score > bound:
        raise AssertionError(f"engine score {score} above the proven bound {bound}: model and engine disagree")
    return Solution(score, bound, "optimal" if score == bound else "feasible", plan, outcome,
                    time.perf_counter() - start)
