"""Move hints: every legal option at the current decision, with what it is worth.

An option's *value* is the final solo score (x100) reached by playing it and then the best
continuation. Two modes:

- **known** (the whole deal is known, a puzzle): each option is solved exactly from the
  state it leads to (``solver/solve.py``); the value is the engine's score of the best plan
  found and comes with CP-SAT's bound, so it is *exact* when the two meet.
- **hidden** (a real game: the stock's contents are known, not its order): values are
  averages over sampled stock orders, each sample solved as a perfect-information game
  (hindsight optimisation, also called perfect-information Monte Carlo), with a standard
  error. Every option is valued on the same samples (common random numbers), so the
  differences between options are sharper than each value's standard error suggests.
  A sampled future is valued by ``solve``, whose warm start gives a strong line in a
  fraction of a second; place options share one beam per sample (``_sample_values``).

Where the hidden estimate is biased (see also the README): a sampled solve knows the
future, so values are optimistic (the *value of clairvoyance*), most for options that keep
choices open only a clairvoyant can exploit; and a solve cut by the budget is only a lower
bound, which pulls values down where the game is long. The design limits both: the same
samples for every option, budget shared evenly, and late-game solves that are exact.

A white card has many declarations; a *place* option is a spot, and the solver picks the
declaration (the best one given the continuation).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

from solver.cards import Card
from solver.deal import Deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.moves import Place, Take
from solver.scoring import solo_breakdown
from solver.shuffle import shuffled
from solver.model import start_of
from solver.solve import place_candidates, solve, warm_candidates
from solver.state import State

Move = Take | Place
MIN_SOLVE_SECONDS = 0.05
USEFUL_SOLVE_SECONDS = 0.5  # a whole-game solve this long usually finds a strong line (warm start: 84-92%)
SOLVE_OVERHEAD = 0.15  # building the models and checking the plan, beyond a solve's own limit (measured)


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
        try:
            found = solve(game, state=state, pinned=move.target, time_limit=time_limit, workers=workers)
        except ExhibitionError:  # no plan in time: take the first legal declaration instead
            found = None
        if found is not None:
            return found.score, found.bound, found.place
        move = next(p for p in game.legal_places(state) if p.target == move.target)
    return _rest(game, game.apply_place(state, move, check=False), time_limit, workers) + (move,)


def _rest(game: Game, state: State, time_limit: float, workers: int) -> tuple[int, int]:
    if state.is_over:
        score = solo_breakdown(game, state).total
        return score, score
    found = solve(game, state=state, time_limit=time_limit, workers=workers)
    return found.score, found.bound


def hint_known(game: Game, state: State, budget: float, workers: int = 2) -> Hint:
    """Every option solved with the whole deal known; the budget is shared evenly."""
    started = time.perf_counter()
    moves = options_at(game, state)
    options = []
    for k, move in enumerate(moves):
        left = budget - (time.perf_counter() - started)
        limit = max(MIN_SOLVE_SECONDS, left / (len(moves) - k) - SOLVE_OVERHEAD)
        score, bound, played = value_of(game, state, move, limit, workers)
        options.append(Option(played, score, bound=bound))
    return _ranked("known", state, options, 1, started)


def hint_hidden(game: Game, state: State, stock: list[Card], budget: float, samples: int, seed: int = 0,
                workers: int = 2) -> Hint:
    """Every option valued on sampled stock orders (anytime: as many samples as the budget
    allows, at most ``samples``; at least one)."""
    started = time.perf_counter()
    moves = options_at(game, state)
    totals: list[list[int]] = [[] for _ in moves]
    done, overhead = 0, SOLVE_OVERHEAD
    # A solve cut too short returns a poor line whatever the sample: fewer, longer solves
    # beat many short ones early in a game (late, solves prove fast and samples are cheap).
    solves = len(moves) + (state.holding is not None)  # a place decision also runs the shared beam
    useful = max(MIN_SOLVE_SECONDS, min(USEFUL_SOLVE_SECONDS, budget / solves - SOLVE_OVERHEAD))
    last_cost = 0.0
    while done < samples:
        began = time.perf_counter()
        left = budget - (began - started)
        if done > 0 and left < max(last_cost, solves * (useful / 2 + overhead)):
            break  # no room for one more sample like the last one, or for useful solves
        share = max(useful, left / ((samples - done) * solves) - overhead)
        per_solve = max(MIN_SOLVE_SECONDS, min(share, left / solves - overhead))  # this sample fits
        sample = sampled_game(game, state, stock, seed, done)
        for k, value in enumerate(_sample_values(sample, state, moves, per_solve, workers)):
            totals[k].append(value)
        last_cost = time.perf_counter() - began
        spent = last_cost / solves  # what a solve really cost beyond its limit
        overhead = max(SOLVE_OVERHEAD, spent - per_solve)
        done += 1
    options = []
    for move, values in zip(moves, totals):
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
        options.append(Option(move, mean, stderr=spread / math.sqrt(len(values)), samples=len(values)))
    return _ranked("hidden", state, options, done, started)


def _sample_values(game: Game, state: State, moves: list[Move], per_solve: float, workers: int) -> list[int]:
    """Every option's value on ``game`` (one sampled stock order), about ``per_solve``
    seconds each. Place options share their future: placing never changes the market, so
    the warm start's beam runs once (in one option's time) and each option is the exact
    placement of its best sequences from the state it leads to."""
    if state.holding is None:
        return [value_of(game, state, move, per_solve, workers)[0] for move in moves]
    candidates = warm_candidates(game, state, start_of(game, state).turns, per_solve)
    values = []
    for move in moves:
        pinned = move.target if move.is_spot and state.holding.is_white and move.declare is None else None
        after = state if pinned is not None else game.apply_place(state, move, check=False)
        if after.is_over:
            values.append(solo_breakdown(game, after).total)
            continue
        found = place_candidates(game, after, candidates, per_solve, workers, pinned)
        values.append(found.score if found is not None else value_of(game, state, move, per_solve, workers)[0])
    return values


def _ranked(mode: str, state: State, options: list[Option], samples: int, started: float) -> Hint:
    options.sort(key=lambda o: -o.value)
    best = options[0].value
    options = [replace(o, loss=best - o.value) for o in options]
    decision = "take" if state.holding is None else "place"
    return Hint(decision, mode, options, samples, time.perf_counter() - started)


def playable(game: Game, state: State, move: Move, time_limit: float = 1.0, workers: int = 2) -> Move:
    """``move`` ready for the engine: a white card's spot gets the declaration the solver
    prefers on ``game`` (in hidden mode, a game of sampled stock order)."""
    if isinstance(move, Take) or not move.is_spot or move.declare is not None or not state.holding.is_white:
        return move
    return value_of(game, state, move, time_limit, workers)[2]


def sampled_game(game: Game, state: State, stock: list[Card], seed: int, sample: int = 0) -> Game:
    """A game whose stock, from ``state`` on, is one sampled order of ``stock``."""
    return Game(Deal(tuple(state.visible_cards()) + tuple(shuffled(stock, seed * 1_000_003 + sample)), game.rules))
