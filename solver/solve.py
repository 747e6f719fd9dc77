"""Solve a solo deal (or place a known take sequence) with the CP-SAT model; the rules
engine replays and scores every plan, and the reported score is always the engine's.

The loop: solve the model; arrange each showcase's cards on spots with the engine's
check (``solver/arrange.py``); if a showcase cannot be arranged, or the plan's END is one
the engine would refuse, add a cut that removes exactly such situations and solve again.
Cuts only remove what the rules forbid, so CP-SAT's bound stays a true bound, and
``status`` is ``optimal`` only when that bound equals the engine's score.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable

from ortools.sat.python import cp_model

from solver.arrange import Arrangement, arrange
from solver.bounds import sequence_bound, static_bound
from solver.cards import Card, Continent
from solver.engine import Game
from solver.errors import ExhibitionError, IllegalMoveError
from solver.greedy import greedy_place, greedy_plan
from solver.model import SoloModel, build_solo_model, fix_prefix, start_of
from solver.moves import DEPOT, END, Place, Take, Turn
from solver.plan import Replay, replay
from solver.state import State
from solver.warmstart import HEURISTIC, Heuristic, add_plan_hint, beam_candidates


@dataclass(frozen=True)
class Solution:
    score: int  # the engine's score of the plan
    bound: int  # CP-SAT's proven upper bound
    status: str  # "optimal" | "feasible"
    plan: list[Turn]
    outcome: Replay
    seconds: float
    cuts: int = 0  # how many times the engine sent the model back
    model_items: tuple[tuple[str, int], ...] = ()  # the model's own value of each score item
    place: Place | None = None  # solving from a place decision: where the held card goes, before ``plan``


class _Progress(cp_model.CpSolverSolutionCallback):
    """Prints the current best and bound on stderr as solutions arrive (never on stdout)."""

    def __init__(self, enabled: bool, start: float) -> None:
        super().__init__()
        self.enabled = enabled
        self.start = start

    def on_solution_callback(self) -> None:
        if self.enabled:
            print(f"  {time.perf_counter() - self.start:7.2f}s  best {int(self.objective_value)}  "
                  f"bound {int(self.best_objective_bound)}", file=sys.stderr, flush=True)


def solver_for(time_limit: float | None, workers: int = 2, seed: int = 0) -> cp_model.CpSolver:
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.random_seed = seed
    s.parameters.log_search_progress = False
    if time_limit is not None:
        s.parameters.max_time_in_seconds = time_limit
    return s


# A feasibility question ("a plan of this cell reaching the target?") is mostly answered
# by refuting it, which only CP-SAT's complete search workers can do: its first-solution,
# feasibility-jump, pump and LNS workers cannot, and on 2 cores they took a share of the
# time (thirty-ninth session: the six complete workers of the 8-worker portfolio refuted in
# 33.2 s what the portfolio did in 43.7 and 39.7 s). Of those six, probing and
# quick_restart_no_lp alone refuted none of 11 hard profile cells in 12 s, and without them
# the other four refuted 22 such cells in 51.4 s against 64 s for the six, the three LP
# ones (no quick_restart) in 55.8 s, and two workers in 46-57 s for 11 cells where the six
# took 31-34 s; proofs by cells of the 30 benchmark deals: the 29 proven in 0.90 and 0.81
# of the six's time (benchmarks/README.md, fifty-first session).
REFUTING_SUBSOLVERS = ("default_lp", "no_lp", "max_lp", "quick_restart")


def feasibility_solver_for(time_limit: float | None, workers: int = 2) -> cp_model.CpSolver:
    """A solver for a model without objective that is mostly refuted: with at least as many
    workers as ``REFUTING_SUBSOLVERS``, those complete search workers and nothing else;
    with fewer, ``solver_for``'s."""
    if workers < len(REFUTING_SUBSOLVERS):
        return solver_for(time_limit, workers)
    s = solver_for(time_limit, len(REFUTING_SUBSOLVERS))
    s.parameters.subsolvers.extend(REFUTING_SUBSOLVERS)
    # without it CP-SAT keeps a worker's slot for other work and runs three of the four
    s.parameters.num_full_subsolvers = len(REFUTING_SUBSOLVERS)
    s.parameters.use_lns = False
    s.parameters.use_feasibility_jump = False
    s.parameters.use_feasibility_pump = False
    s.parameters.use_rins_lns = False
    return s


def _taken_order(h: SoloModel, solver: cp_model.CpSolver) -> list[int]:
    order = []
    for t in range(h.turns):
        for i in range(len(h.cards)):
            x = h.take.get((t, i))
            if x is not None and solver.boolean_value(x):
                order.append(i)
    return order


def _showcase_sets(h: SoloModel, solver: cp_model.CpSolver) -> dict[int, list[int]]:
    sets: dict[int, list[int]] = {}
    for (i, p), v in h.shelf.items():
        if solver.boolean_value(v):
            sets.setdefault(p, []).append(i)
    return sets


def _try_plan(game: Game, h: SoloModel, solver: cp_model.CpSolver) -> tuple[Place | None, list[Turn]] | None:
    """The plan of the current solution (the held card's place, then the turns), or None
    after adding a cut that removes it."""
    start = h.start
    order = _taken_order(h, solver)
    placed = ([h.held] if h.held is not None else []) + order
    ended = next((i for i in placed if solver.boolean_value(h.end[i])), None)
    sets = {p: [i for i in members if i not in h.fixed] for p, members in _showcase_sets(h, solver).items()}
    pinned = {h.cards[h.held]: start.pinned} if start.pinned is not None else None
    where: Arrangement = {}
    for p, members in sets.items():
        cards = [h.cards[i] for i in members]
        found = arrange(game.rules, p, cards, hall=start.hall, pinned=pinned)
        if found is None:
            # no legal arrangement: by monotonicity no superset of these cards has one either
            h.model.add_bool_or([~h.shelf[i, p] for i in members])
            return None
        if ended is not None:
            blocking = arrange(game.rules, p, cards, blocking=h.cards[ended], hall=start.hall, pinned=pinned)
            if blocking is None:
                # END with this card is refused whenever this showcase holds exactly these cards
                others = [v for (j, q), v in h.shelf.items() if q == p and j not in members and j not in h.fixed]
                h.model.add_bool_or([~h.end[ended]] + [~h.shelf[i, p] for i in members] + others)
                return None
            found = blocking
        where.update(found)
    if ended is not None:
        # every showcase that receives no card must block the END card too
        for p in range(len(game.layout)):
            if not sets.get(p) and arrange(game.rules, p, [], blocking=h.cards[ended], hall=start.hall) is None:
                h.model.add_bool_or([~h.end[ended]] + [v for (j, q), v in h.shelf.items() if q == p and j not in h.fixed])
                return None

    def place_of(i: int) -> Place:
        c = h.cards[i]
        if c in where:
            return Place(*where[c])
        return Place(DEPOT) if solver.boolean_value(h.depot[i]) else Place(END)

    plan = []
    for t, i in enumerate(order):
        c = h.cards[i]
        to = None
        if c.is_white:
            to = next((Continent(j) for j in range(6) if solver.boolean_value(h.column[t + 1, j])), Continent.OC)
        plan.append(Turn(Take(c, to), place_of(i)))
    return (place_of(h.held) if h.held is not None else None), plan


def check_take_sequence(game: Game, takes: list[Card]) -> None:
    """Raise IllegalMoveError naming the first take that the market does not allow.

    A white card's vehicle goes to the column of the next take, so it never blocks it."""
    state = game.initial_state()
    if len(takes) > 19:
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
          progress: bool = False, turn_limit: int | None = None, prefix: list[Take] | None = None,
          at_least: int | None = None, state: State | None = None, pinned: int | None = None,
          stop_early: bool = False, warm_start: bool = True,
          restrict: Callable[[SoloModel], None] | None = None, model: SoloModel | None = None) -> Solution | None:
    """Best plan for the deal (or for the take sequence ``takes``), replayed by the engine.

    ``stop_early`` lets the game end after any prefix of ``takes``.
    ``state`` solves the rest of the game from that solo state (default: the deal's start);
    ``pinned`` puts its held white card on that flat spot. ``prefix`` fixes the first takes;
    with ``at_least`` only plans scoring that much count, and None means there is none (proven).
    ``restrict`` adds constraints to the model (a cell of ``solver/cells.py``); with it and
    ``at_least`` any plan reaching ``at_least`` will do: the model has no objective, as
    refuting a cell is faster without one (measured), and is asked of
    ``feasibility_solver_for``. ``model``: the model these arguments
    build, built beforehand (a ``SoloModel.copy``, which this solve adds its constraints to:
    the proof by cells asks many cells of one game without building a model for each)."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    start = start_of(game, state, pinned=pinned)
    h = model if model is not None else build_solo_model(game, takes=takes, turn_limit=turn_limit, start=start,
                                                         stop_early=stop_early)
    if prefix:
        fix_prefix(h, prefix)
    if at_least is not None:
        h.model.add(h.score >= at_least)
    if restrict is not None:
        restrict(h)
    feasible_only = restrict is not None and at_least is not None
    if feasible_only:
        h.model.clear_objective()
    warm = None
    rest_of_game = takes is None and not prefix and turn_limit is None and at_least is None
    whole_game = rest_of_game and pinned is None  # any legal game will do as a fallback
    if warm_start and rest_of_game:
        warm = warm_solution(game, state or game.initial_state(), start.turns, time_limit, workers, pinned=pinned)
        if warm is not None:
            add_plan_hint(h, warm)
    solver = (feasibility_solver_for if feasible_only else solver_for)(time_limit, workers)
    if takes is not None:
        solver.parameters.linearization_level = PLACEMENT_LINEARIZATION
    cuts = 0
    found = None
    while True:
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
        status = solver.solve(h.model, _Progress(progress, started))
        if status == cp_model.INFEASIBLE and (at_least is not None or prefix or pinned is not None):
            return None
        if status == cp_model.INFEASIBLE:
            raise ExhibitionError("no legal way to play this take sequence to the end of the game" if takes
                                  else "the model found no legal game (a bug: every deal has one)")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found = _try_plan(game, h, solver)
            if found is not None:
                break
            cuts += 1
        out_of_time = deadline is not None and time.perf_counter() >= deadline
        if out_of_time or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
    raw_bound = solver.best_objective_bound
    ceiling = static_bound(game, start)
    known = (math.isfinite(raw_bound) and status in (cp_model.OPTIMAL, cp_model.FEASIBLE)  # cut short: no bound
             and not feasible_only)
    bound = int(round(raw_bound)) if known else ceiling
    bound = min(bound, ceiling) if takes is None and turn_limit is None else bound
    if found is None and warm is None:
        # Out of time before CP-SAT's plan passed the engine, and no warm start: a greedy
        # game (only for a whole game without prefix or cutoff, where any will do).
        if not whole_game:
            raise ExhibitionError("no plan found within the time limit; give more --time-limit")
        greedy = greedy_solution(game, state)
        bound = max(bound, greedy.score)
        return replace(greedy, bound=bound, status="optimal" if greedy.score == bound else "feasible",
                       seconds=time.perf_counter() - started, cuts=cuts)
    if found is not None:
        place, plan = found
        outcome = replay(game, plan, require_end=turn_limit is None, state=state, place=place)
        _checked(outcome.score, bound)
    if warm is not None and (found is None or warm.score > outcome.score):  # CP-SAT ran out of time below it
        return replace(warm, bound=_checked(warm.score, bound), status="optimal" if warm.score == bound else "feasible",
                       seconds=time.perf_counter() - started)
    score = outcome.score
    model_items = tuple((k, v if isinstance(v, int) else int(solver.value(v))) for k, v in h.items.items())
    return Solution(score, bound, "optimal" if score == bound else "feasible", plan, outcome,
                    time.perf_counter() - started, cuts, model_items, place)


def greedy_solution(game: Game, state: State | None = None) -> Solution:
    """The greedy game from ``state`` (default: the deal's start; a held card placed greedily
    first), replayed by the engine, with the quick bound ``static_bound``: a legal plan in
    milliseconds, for when nothing better is at hand."""
    started = time.perf_counter()
    state = state or game.initial_state()
    place = greedy_place(game, state) if state.holding is not None else None
    plan = greedy_plan(game, game.apply_place(state, place, check=False) if place else state)
    outcome = replay(game, plan, state=state, place=place)
    bound = max(static_bound(game, start_of(game, state)), outcome.score)
    return Solution(outcome.score, bound, "optimal" if outcome.score == bound else "feasible", plan, outcome,
                    time.perf_counter() - started, place=place)


def _checked(score: int, bound: int) -> int:
    """The bound, once sure that the engine's score does not exceed it."""
    if score > bound:
        raise AssertionError(f"engine score {score} above the proven bound {bound}: model and engine disagree")
    return bound


PLACEMENT_LINEARIZATION = 2  # a fuller LP: placements of early-game lines prove about 30% sooner (measured)
WARM_SHARE = 0.8  # of the time limit, at most, for the warm start (it stops early once its placements are proven)
WARM_SECONDS = 2.0  # at most, whatever the time limit
BEAM_SHARE = 0.5  # of the warm start's time, for the beam; the rest places its candidates
BEAM_NODES_PER_SECOND = 100_000  # nodes the beam ranks per second on this machine (measured)
MIN_PLACE_SECONDS = 0.05  # the first candidate's placement gets this much even out of time


def warm_solution(game: Game, state: State, turns: int, time_limit: float | None, workers: int,
                  limit: float | None = None, heuristic: Heuristic = HEURISTIC, pinned: int | None = None) -> Solution | None:
    """The warm start: the beam's best take sequences, each placed exactly, within ``limit``
    seconds (by default a share of ``time_limit``; the beam narrows to fit); the best plan,
    or None if nothing in time. ``pinned``: the held white card's spot, as in ``solve``."""
    started = time.perf_counter()
    if limit is None:
        limit = WARM_SECONDS if time_limit is None else min(WARM_SECONDS, WARM_SHARE * time_limit)
    candidates = warm_candidates(game, state, turns, BEAM_SHARE * limit, heuristic)
    return place_candidates(game, state, candidates, limit - (time.perf_counter() - started), workers, pinned)


def warm_candidates(game: Game, state: State, turns: int, seconds: float,
                    heuristic: Heuristic = HEURISTIC) -> list[list[Take]]:
    """The beam's best complete take sequences, the beam narrowed to take about ``seconds``."""
    affordable = int(seconds * BEAM_NODES_PER_SECOND / (3 * max(1, turns)))  # about 3 children a node
    return beam_candidates(game, state, turns, replace(heuristic, width=max(1, min(heuristic.width, affordable))))


def place_candidates(game: Game, state: State, candidates: list[list[Take]], limit: float, workers: int,
                     pinned: int | None = None, floor: int | None = None, threads: int = 1) -> Solution | None:
    """The best exact placement of the candidate take sequences from ``state`` (the game may
    stop after any take), tried best first while ``limit`` seconds last: each may use all
    the time left, as a placement is often proven early. None if none placed in time.

    With ``floor``, a placement only looks for plans above it and above the best placed so
    far, and None means that none beat ``floor``: a sequence that cannot beat them is
    refuted, which is several times quicker than placing it (40 sequences in about 1 s
    instead of 3-4 s on 2 threads), and one whose ``sequence_bound`` is below that is not
    asked of CP-SAT at all (the two wide dives' sequences of ten benchmark deals, placed
    above their optima: 13.7 s against 27.3 s; above the warm start's plans: 24.7 s
    against 33.9 s). With ``floor`` the sequences are tried in the order of their bounds,
    highest first: a good plan found early raises the floor that spares the rest. Under
    SHORT ERA, whose placements take several times longer, the first wide dives of 20
    deals took 40.3 s against 52.2 s in the beam's order, and one found its deal's optimum
    (3086 against 2686) before the dive's time ran out; under the base rules the same plans
    in the same time (benchmarks/README.md, sixty-sixth session). ``threads`` places that
    many sequences at once, each with ``workers`` CP-SAT workers (CP-SAT releases the GIL)."""
    started = time.perf_counter()
    best: list[Solution] = []  # the best so far, shared by the threads
    lock = threading.Lock()
    bounds = None if floor is None else [sequence_bound(game, state, takes) for takes in candidates]
    order = list(range(len(candidates)))
    if bounds is not None:
        order.sort(key=lambda n: -bounds[n])

    def place(number: int, n: int) -> None:
        left = limit - (time.perf_counter() - started)
        if left <= 0 and number > 0:
            return
        with lock:
            above = None if floor is None else max([floor] + [b.score for b in best]) + 1
        if above is not None and bounds[n] < above:
            return  # no placement of it can reach the floor: spared the CP-SAT solve
        takes = candidates[n]
        try:
            found = solve(game, takes=[t.card for t in takes], state=state, workers=workers, stop_early=True,
                          time_limit=max(MIN_PLACE_SECONDS, left), pinned=pinned, warm_start=False, at_least=above)
        except ExhibitionError:
            return  # no placement found in the time left
        with lock:
            if found is not None and (not best or found.score > best[0].score):
                best[:] = [found]

    if threads == 1:
        for number, n in enumerate(order):
            place(number, n)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(place, range(len(order)), order))
    return best[0] if best else None
