"""Move hints: every legal option at the current decision, with what it is worth.

An option's *value* is the final solo score (x100) reached by playing it and then the best
continuation. Two modes:

- **known** (the whole deal is known, a puzzle): the position is solved first (by cells at
  the deal's start, by the whole-game model later) and its best plan's move is worth that
  plan's score; then each other option is solved from the state it leads to
  (``solver/solve.py``); a value is the engine's score of the best plan found and comes
  with CP-SAT's bound (at most the position's), so it is *exact* when the two meet. Given
  a proven optimal line (a daily puzzle's), the line's move is exact at once and no option
  is bounded above the line's score.
- **hidden** (a real game: the stock's contents are known, not its order): values are
  averages over sampled stock orders, each sample solved as a perfect-information game
  (hindsight optimisation, also called perfect-information Monte Carlo), with a standard
  error. Every option is valued on the same samples (common random numbers), so the
  differences between options are sharper than each value's standard error suggests.
  A sampled future is valued by the warm start's best lines from the position the option
  leads to, each placed exactly by CP-SAT (``_sample_values``); the placements run on
  ``workers`` threads. Sampling is a race: an option clearly worse than the best on their
  shared samples stops being sampled (``_contenders``), so the budget goes to the contenders.

Where the hidden estimate is biased (see also the README): a sampled solve knows the
future, so values are optimistic (the *value of clairvoyance*), most for options that keep
choices open only a clairvoyant can exploit; and a sample's value is the best of a few
beam lines, placed exactly, so a lower bound of that sample's optimum, which pulls values
down (measured: 230-510 points at turns 4-12; valued exactly instead, late samples did not
make the decisions better: benchmarks/README.md). The design limits both: the same samples
for every option, and the race spends the samples where options are close.

A white card has many declarations; a *place* option is a spot, and the solver picks the
declaration (the best one given the continuation; with the stock hidden, the one most
samples' placements picked), so the best option can be played as it stands.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, replace

from solver.cards import Card
from solver.cells import solve_by_cells
from solver.deal import Deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.moves import Place, Take, Turn
from solver.scoring import solo_breakdown
from solver.shuffle import shuffled
from solver.model import start_of
from solver.solve import Solution, place_candidates, solve, warm_candidates
from solver.state import State
from solver.warmstart import HEURISTIC

Move = Take | Place
OptimalLine = tuple[list[Turn], int]  # a plan from the start and its score, proven optimal
MIN_SOLVE_SECONDS = 0.05
# Known deal, at its start: this share of the budget for the proof by cells first, if that
# is at least so many seconds. On the first decision of 11 benchmark deals at 15 s, the best
# option exact on 8 and at the optimum on 10, against 1 and 5 with every option solved on
# its share (benchmarks/hints_known.py); at 5 s (3 s of proof, its dives cut short) not
# better: exact on 2 of 12 and at the optimum on 3, against 0 and 4 (scratch, benchmarks/README.md)
START_PROOF_SHARE = 0.6
START_PROOF_SECONDS = 6.0
# Known deal, at any later position: this share of the budget for the whole-game model's
# solve of the position first, if every other option keeps OPTION_SECONDS of solve. Along
# the proven lines of seeds 1-6 (turns 2-10, both decisions: 60 positions) at 5 s, the best
# option exact at 47 and at the optimum at 53, against 39 and 49 with every option solved
# on its share (benchmarks/hints_known.py)
POSITION_SHARE = 0.6
OPTION_SECONDS = 0.25
SOLVE_OVERHEAD = 0.15  # building the models and checking the plan, beyond a solve's own limit (measured)
# Hidden stock: a sampled future is valued by the warm start's best lines, placed exactly.
TAKE_LINES = 2  # a take option's best lines, each placed exactly; the best placement is its value
PLACE_LINES = 1  # place options share their sample's best line: spend the time on more samples
SAMPLE_BEAM_SHARE = 0.5  # of a sample's planned time, for its beams; placements take about as long
MIN_SAMPLE_SECONDS = 0.2  # a sample's planned time, at least
SAMPLE_MARGIN = 1.25  # one more sample only if this many times the last one's cost is left (they vary)
PLACE_SECONDS = 0.5  # at most per placement; most are proven within 0.1 s
# what the last placements can run past their limit (models, replays): kept off the budget
# (0.3 let a 5 s decision end at 5.07 s in a 20-deal run of benchmarks/policy.py; with 0.5 the
# first decisions of its 20 deals ended by 4.69 s, against 4.97 s, on as many samples)
PLACE_OVERRUN = 0.5
RACE_AFTER = 1  # samples every option gets before the race may drop it
RACE_MARGIN = 400  # an option stays while its mean loss against the best is at most this over the number of samples...
RACE_SIGMAS = 2.0  # ...or this many standard errors of that loss


@dataclass(frozen=True)
class Option:
    """One legal option and its value (final score x100 with the best continuation)."""

    move: Move
    value: float
    loss: float = 0.0
    stderr: float | None = None  # hidden mode: standard error of the mean over samples
    bound: int | None = None  # known mode: proven upper bound of the value
    samples: int = 1

    @property
    def exact(self) -> bool:
        return self.bound is not None and self.bound == self.value


@dataclass(frozen=True)
class Hint:
    decision: str  # "take" | "place"
    mode: str  # "known" | "hidden"
    options: list[Option]
    samples: int
    seconds: float

    @property
    def best(self) -> Option:
        return self.options[0]


def move_json(move: Move, game: Game) -> dict:
    """A move as in the plan file format: {"take", "to"} or {"place", "declare"}."""
    if isinstance(move, Take):
        out: dict = {"take": move.card.code}
        if move.to is not None:
            out["to"] = move.to.name
        return out
    out = {"place": move.name(game.layout)}
    if move.declare is not None:
        out["declare"] = move.declare.to_json()
    return out


def move_text(move: Move, game: Game) -> str:
    if isinstance(move, Take):
        return f"take {move}"
    text = move.name(game.layout)
    if move.declare is not None:
        d = move.declare
        text += f" as {d.continent.name}{d.year if d.year is not None else ''}"
    return text


def options_at(game: Game, state: State) -> list[Move]:
    """Every legal option at the decision; a white card's spot once (declaration left open)."""
    if state.holding is None:
        return game.legal_takes(state)
    if state.holding.is_white:  # the solver picks the declaration
        return [Place(p.target) for p in game.place_options(state)]
    return game.place_options(state)


def same_option(a: Move, b: Move) -> bool:
    """Whether move ``b`` (as played) is option ``a``: a place option is its spot, whatever a
    white card declares there."""
    if isinstance(a, Take) or isinstance(b, Take):
        return a == b
    return a.target == b.target


def value_of(game: Game, state: State, move: Move, time_limit: float, workers: int) -> tuple[int, int, Move]:
    """(score, bound, move with its declaration) of playing ``move`` then the best continuation."""
    if isinstance(move, Take):
        return _rest(game, game.apply_take(state, move, check=False), time_limit, workers) + (move,)
    if move.is_spot and state.holding.is_white and move.declare is None:
        started = time.perf_counter()
        try:
            found = solve(game, state=state, pinned=move.target, time_limit=time_limit, workers=workers)
        except ExhibitionError:  # no plan in time: take the first legal declaration instead...
            found = None
        if found is not None:
            return found.score, found.bound, found.place
        move = next(p for p in game.legal_places(state) if p.target == move.target)
        # ...in what is left of the time limit, so that the two solves keep to it together
        time_limit = max(MIN_SOLVE_SECONDS, time_limit - (time.perf_counter() - started))
    return _rest(game, game.apply_place(state, move, check=False), time_limit, workers) + (move,)


def _rest(game: Game, state: State, time_limit: float, workers: int) -> tuple[int, int]:
    if state.is_over:
        score = solo_breakdown(game, state).total
        return score, score
    found = solve(game, state=state, time_limit=time_limit, workers=workers)
    return found.score, found.bound


def hint_known(game: Game, state: State, budget: float, workers: int = 2,
               optimal_line: OptimalLine | None = None) -> Hint:
    """Every option solved with the whole deal known, on an even share of what the
    position's own solve (``_solved_position``) leaves of the budget.

    ``optimal_line``: a plan from the start and its score, proven optimal (a daily puzzle's
    stored line). No plan scores more, so every option's bound is at most that score; and
    where ``state`` lies on the line, the line's move is worth exactly that score, with no
    solve (early in a game, a solve within a share of the budget is rarely proven).

    Off such a line, or without one, the position is solved first: its best plan's move is
    worth that plan's score, exactly when the solve is proven; its bound holds for every
    option (the options' own solves, on the rest of the budget, bound them by little more
    than the item caps)."""
    started = time.perf_counter()
    moves = options_at(game, state)
    ceiling = None if optimal_line is None else optimal_line[1]
    first = None if optimal_line is None else line_move(game, optimal_line[0], state)
    options = []
    if first is not None:
        options.append(Option(first, optimal_line[1], bound=ceiling))
    else:
        solved = _solved_position(game, state, budget, len(moves), workers)
        if solved is not None:
            first, found = solved
            ceiling = found.bound if ceiling is None else min(ceiling, found.bound)
            options.append(Option(first, found.score, bound=ceiling))
    if first is not None:
        moves = [move for move in moves if not same_option(move, first)]
    for k, move in enumerate(moves):
        left = budget - (time.perf_counter() - started)
        limit = max(MIN_SOLVE_SECONDS, left / (len(moves) - k) - SOLVE_OVERHEAD)
        score, bound, played = value_of(game, state, move, limit, workers)
        options.append(Option(played, score, bound=bound if ceiling is None else min(bound, ceiling)))
    return _ranked("known", state, options, 1, started)


def _solved_position(game: Game, state: State, budget: float, options: int,
                     workers: int) -> tuple[Move, Solution] | None:
    """The position solved before its ``options``: the best plan found and the move it plays
    there (a held white card's spot with its declaration); None if there is no time for it
    or no plan was found.

    At the deal's start the proof by cells (``solver/cells.py``), with ``START_PROOF_SHARE``
    of the budget if that is at least ``START_PROOF_SECONDS`` (else no solve: the whole-game
    model is weakest there). From any later position the whole-game model, with
    ``POSITION_SHARE`` of the budget if every other option keeps ``OPTION_SECONDS`` of solve
    (an early place decision with a dozen options does not: its one solve found less there
    than the options' own, benchmarks/README.md)."""
    if state == game.initial_state():
        if START_PROOF_SHARE * budget < START_PROOF_SECONDS:
            return None
        proof = solve_by_cells(game, START_PROOF_SHARE * budget).solution
        return proof.plan[0].take, proof
    kept = (options - 1) * (OPTION_SECONDS + SOLVE_OVERHEAD)
    seconds = min(POSITION_SHARE * budget, budget - kept) - SOLVE_OVERHEAD
    if options < 2 or seconds < MIN_SOLVE_SECONDS:
        return None
    try:
        found = solve(game, state=state, time_limit=seconds, workers=workers)
    except ExhibitionError:
        return None
    if state.holding is not None:
        return found.place, found
    return (found.plan[0].take, found) if found.plan else None


def line_move(game: Game, line: list[Turn], state: State) -> Move | None:
    """The move ``line`` (a plan from the start) plays at ``state``, or None if ``state`` is
    not on it."""
    at = game.initial_state()
    for turn in line:
        if at == state:
            return turn.take
        at = game.apply_take(at, turn.take, check=False)
        if at == state:
            return turn.place
        at = game.apply_place(at, turn.place, check=False)
    return None


def hint_hidden(game: Game, state: State, stock: list[Card], budget: float, samples: int, seed: int = 0,
                workers: int = 2) -> Hint:
    """Every option valued on sampled stock orders (anytime: as many samples as the budget
    allows, at most ``samples``; at least one).

    A race: every option is valued on the first ``RACE_AFTER`` samples; from then on an
    option clearly worse than the best on the samples they share (``_contenders``) is
    dropped, and later samples go to the options still in contention. A dropped option's
    value is the best option's value minus its mean loss on their shared samples."""
    started = time.perf_counter()
    deadline = started + budget - min(PLACE_OVERRUN, 0.1 * budget)
    moves = options_at(game, state)
    totals: list[list[int]] = [[] for _ in moves]
    played: list[list[Move]] = [[] for _ in moves]  # each sample's move: a white card's spot with its declaration
    alive = list(range(len(moves)))
    done, last_cost, last_alive = 0, 0.0, len(moves)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        while done < samples:
            began = time.perf_counter()
            left = deadline - began
            if done > 0 and left < SAMPLE_MARGIN * last_cost * len(alive) / last_alive:
                break  # no room for one more sample like the last one
            beam_seconds = SAMPLE_BEAM_SHARE * max(MIN_SAMPLE_SECONDS, left / (samples - done))
            sample = sampled_game(game, state, stock, seed, done)
            values = _sample_values(sample, state, [moves[k] for k in alive], beam_seconds, pool, deadline,
                                    abandon=done > 0)
            if values is None:
                break  # cut short by the budget: leave the sample out
            for k, (value, move) in zip(alive, values):
                totals[k].append(value)
                played[k].append(move)
            last_cost, last_alive = time.perf_counter() - began, len(alive)
            done += 1
            if done >= RACE_AFTER:
                alive = _contenders(totals, alive)
    best = max(alive, key=lambda k: sum(totals[k]))
    options = [_sampled_option(_most_played(played[k]), totals[k], totals[best]) for k in range(len(moves))]
    return _ranked("hidden", state, options, done, started)


def _most_played(moves: list[Move]) -> Move:
    """An option as its samples played it: the same move in every sample, except a white
    card's spot, whose declaration each sample's placement picks for its own future; the
    declaration most samples picked (the earliest of a tie)."""
    return max(moves, key=moves.count)


def _mean_and_stderr(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))


def _sampled_option(move: Move, values: list[int], best: list[int]) -> Option:
    """The option's value: its mean, or if it left the race early (fewer samples than the
    best option), the best option's mean minus the mean loss on their shared samples."""
    if len(values) == len(best):
        mean, stderr = _mean_and_stderr(values)
    else:
        loss, stderr = _mean_and_stderr([b - v for b, v in zip(best, values)])
        mean = sum(best) / len(best) - loss
    return Option(move, mean, stderr=stderr, samples=len(values))


def _contenders(totals: list[list[int]], alive: list[int]) -> list[int]:
    """The options still in the race: those whose mean loss against the best, on their
    shared samples, is within ``RACE_MARGIN`` over the number of samples (a wide margin
    at first, narrowing as samples accumulate), or ``RACE_SIGMAS`` standard errors."""
    best = max(alive, key=lambda k: sum(totals[k]))
    keep = []
    for k in alive:
        loss, stderr = _mean_and_stderr([b - v for b, v in zip(totals[best], totals[k])])
        if loss <= max(RACE_MARGIN / len(totals[k]), RACE_SIGMAS * stderr):
            keep.append(k)
    return keep


def _sample_values(game: Game, state: State, moves: list[Move], beam_seconds: float, pool: Executor,
                   deadline: float, abandon: bool = False) -> list[tuple[int, Move]] | None:
    """Every option's value on ``game`` (one sampled stock order): the warm start's lines from
    the position the option leads to, each the engine's score of an exact placement; with
    the option as played there (a white card's spot gets the declaration of its placement).

    The beams take about ``beam_seconds`` in all. Place options share one beam (placing never
    changes the market); a take option gets its own. The placements, the bulk of the work,
    run on ``pool``'s threads with one CP-SAT worker each (CP-SAT releases the GIL, and a
    placement model is too small for a portfolio to pay). Placements stop at ``deadline``;
    with ``abandon`` the whole sample is given up (None) once it has passed."""
    if state.holding is None:
        afters = [(game.apply_take(state, move, check=False), None) for move in moves]
        each = beam_seconds / len(moves)
        lines = replace(HEURISTIC, candidates=TAKE_LINES)
        candidates = [warm_candidates(game, after, start_of(game, after).turns, each, lines) for after, _ in afters]
    else:
        afters = []
        for move in moves:
            pinned = move.target if move.is_spot and state.holding.is_white and move.declare is None else None
            afters.append((state, pinned) if pinned is not None else (game.apply_place(state, move, check=False), None))
        lines = replace(HEURISTIC, candidates=PLACE_LINES)
        shared = warm_candidates(game, state, start_of(game, state).turns, beam_seconds, lines)
        candidates = [shared] * len(moves)

    def time_left() -> float | None:
        """A solve's time limit: at most ``PLACE_SECONDS``, and what is left before the
        deadline; None once it has passed and the sample may be given up."""
        limit = min(PLACE_SECONDS, deadline - time.perf_counter())
        if limit >= MIN_SOLVE_SECONDS:
            return limit
        return None if abandon else MIN_SOLVE_SECONDS

    def value(k: int) -> tuple[int, Move] | None:
        after, pinned = afters[k]
        if after.is_over:
            return solo_breakdown(game, after).total, moves[k]
        limit = time_left()
        if limit is None:
            return None
        found = place_candidates(game, after, candidates[k], limit, 1, pinned)
        if found is None:  # nothing placed in time (a white card's pinned spot, now and then)
            limit = time_left()  # a whole solve of the rest, in the time the placement left
            if limit is None:
                return None
            score, _, move = value_of(game, state, moves[k], limit, 1)
            return score, move
        return found.score, found.place if pinned is not None else moves[k]

    values = list(pool.map(value, range(len(moves))))
    return None if None in values else values


def _ranked(mode: str, state: State, options: list[Option], samples: int, started: float) -> Hint:
    options.sort(key=lambda o: -o.value)
    best = options[0].value
    options = [replace(o, loss=best - o.value) for o in options]
    decision = "take" if state.holding is None else "place"
    return Hint(decision, mode, options, samples, time.perf_counter() - started)


def sampled_game(game: Game, state: State, stock: list[Card], seed: int, sample: int = 0) -> Game:
    """A game whose stock, from ``state`` on, is one sampled order of ``stock``."""
    return Game(Deal(tuple(state.visible_cards()) + tuple(shuffled(stock, seed * 1_000_003 + sample)), game.rules))
