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
  A sampled future is valued by the warm start's best lines from the position the option
  leads to, each placed exactly by CP-SAT (``_sample_values``); the placements run on
  ``workers`` threads. Sampling is a race: an option clearly worse than the best on their
  shared samples stops being sampled (``_contenders``), so the budget goes to the contenders.

Where the hidden estimate is biased (see also the README): a sampled solve knows the
future, so values are optimistic (the *value of clairvoyance*), most for options that keep
choices open only a clairvoyant can exploit; and a sample's value is the best of a few
beam lines, placed exactly, so a lower bound of that sample's optimum, which pulls values
down where the game is long (late in a game the lines include the optimum). The design
limits both: the same samples for every option, and the race spends the samples where
options are close.

A white card has many declarations; a *place* option is a spot, and the solver picks the
declaration (the best one given the continuation).
"""

from __future__ import annotations

import math
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, replace

from solver.cards import Card
from solver.deal import Deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.moves import Place, Take
from solver.rules import showcase_of
from solver.scoring import solo_breakdown
from solver.shuffle import shuffled
from solver.model import SoloModel, start_of
from solver.solve import place_candidates, solve, warm_candidates
from solver.state import State
from solver.warmstart import HEURISTIC

Move = Take | Place
MIN_SOLVE_SECONDS = 0.05
SOLVE_OVERHEAD = 0.15  # building the models and checking the plan, beyond a solve's own limit (measured)
# Hidden stock: a sampled future is valued by the warm start's best lines, placed exactly.
TAKE_LINES = 2  # a take option's best lines, each placed exactly; the best placement is its value
PLACE_LINES = 1  # place options share their sample's best line: spend the time on more samples
SHOWCASE_SHARE = 0.6  # of a place decision's budget, for its first round (the showcase); the rest picks the spot
SAMPLE_BEAM_SHARE = 0.5  # of a sample's planned time, for its beams; placements take about as long
MIN_SAMPLE_SECONDS = 0.2  # a sample's planned time, at least
SAMPLE_MARGIN = 1.25  # one more sample only if this many times the last one's cost is left (they vary)
PLACE_SECONDS = 0.5  # at most per placement; most are proven within 0.1 s
PLACE_OVERRUN = 0.3  # what the last placements can run past their limit (models, replays): kept off the budget
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
    allows, at most ``samples``; at least one).

    A race (``_Race``): every option is valued on the first ``RACE_AFTER`` samples; from then
    on an option clearly worse than the best on the samples they share (``_contenders``) is
    dropped, and later samples go to the options still in contention. A dropped option's
    value is the best option's value minus its mean loss on their shared samples.

    A place decision is raced in two rounds when a showcase offers several spots. The
    first, for ``SHOWCASE_SHARE`` of the budget, races the showcases (``InShowcase``: the
    solver puts the card on the showcase's best spot in each sample), so a sample costs one
    placement per showcase rather than one per spot. The second races every spot of the
    choices still in the race, on the same sampled orders. A showcase's first-round value
    is optimistic (its best spot in each sample, where a player commits to one spot), so
    it only screens: the second round compares real spots. Spots dropped in the first
    round are valued by their showcase's loss against the first round's best."""
    started = time.perf_counter()
    deadline = started + budget - min(PLACE_OVERRUN, 0.1 * budget)
    moves = options_at(game, state)
    choices = _showcase_choices(moves) if state.holding is not None else moves
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        lines: dict[int, list[list[Take]]] = {}  # a place decision's beam lines, per sample: both rounds use them
        first = _Race(game, state, stock, choices, samples, seed, pool, lines)
        if len(choices) == len(moves):
            first.run(deadline)
            return _ranked("hidden", state, [first.option(k, move) for k, move in enumerate(moves)], first.done, started)
        first.run(started + SHOWCASE_SHARE * (deadline - started))
        finalists = [move for k in first.alive for move in _spots(choices[k])]
        second = _Race(game, state, stock, finalists, samples, seed, pool, lines)
        if len(finalists) > 1:
            second.run(deadline)
    top = first.option(first.best(), choices[first.best()]).value
    if len(finalists) > 1:
        options = [second.option(k, move) for k, move in enumerate(finalists)]
        best = max(o.value for o in options)
    else:
        options, best = [first.option(first.best(), finalists[0])], top  # the only one left
    for k, choice in enumerate(choices):
        if k not in first.alive:
            below = top - first.option(k, choice).value
            options += [replace(first.option(k, move), value=best - below) for move in _spots(choice)]
    return _ranked("hidden", state, options, max(first.done, second.done), started)


@dataclass(frozen=True)
class InShowcase:
    """A place option of the first round: the held card somewhere in the showcase at
    ``position``, the spot left to the solver in each sample; ``spots`` are its options."""

    position: int
    spots: tuple[Place, ...]


Choice = Move | InShowcase


def _showcase_choices(moves: list[Move]) -> list[Choice]:
    """Place options grouped by showcase: a showcase with several legal spots becomes one
    ``InShowcase``; a lone spot, the depot and END stay as they are."""
    by_showcase: dict[int, list[Place]] = {}
    for move in moves:
        if move.is_spot:
            by_showcase.setdefault(showcase_of(move.target)[0], []).append(move)
    choices: list[Choice] = []
    for move in moves:
        if not move.is_spot:
            choices.append(move)
            continue
        position = showcase_of(move.target)[0]
        spots = by_showcase[position]
        if len(spots) == 1:
            choices.append(move)
        elif move is spots[0]:
            choices.append(InShowcase(position, tuple(spots)))
    return choices


def _spots(choice: Choice) -> tuple[Move, ...]:
    return choice.spots if isinstance(choice, InShowcase) else (choice,)


class _Race:
    """Options valued on one sampled stock order after another (sample ``n`` of ``seed``:
    the same orders in every race of a decision), dropping clear losers as it goes."""

    def __init__(self, game: Game, state: State, stock: list[Card], choices: list[Choice], samples: int, seed: int,
                 pool: Executor, lines: dict[int, list[list[Take]]]) -> None:
        self.game, self.state, self.stock, self.choices = game, state, stock, choices
        self.samples, self.seed, self.pool, self.lines = samples, seed, pool, lines
        self.totals: list[list[int]] = [[] for _ in choices]
        self.alive = list(range(len(choices)))
        self.done, self.last_cost, self.last_alive = 0, 0.0, len(choices)

    def run(self, deadline: float) -> None:
        """Sample until ``deadline`` (or ``samples`` samples); at least one sample in all."""
        while self.done < self.samples:
            began = time.perf_counter()
            left = deadline - began
            if self.done > 0 and left < SAMPLE_MARGIN * self.last_cost * len(self.alive) / self.last_alive:
                break  # no room for one more sample like the last one
            beam_seconds = SAMPLE_BEAM_SHARE * max(MIN_SAMPLE_SECONDS, left / (self.samples - self.done))
            sample = sampled_game(self.game, self.state, self.stock, self.seed, self.done)
            lines = None
            if self.state.holding is not None:
                if self.done not in self.lines:
                    self.lines[self.done] = place_lines(sample, self.state, beam_seconds)
                lines = self.lines[self.done]
            values = _sample_values(sample, self.state, [self.choices[k] for k in self.alive], beam_seconds, self.pool,
                                    deadline, abandon=self.done > 0, lines=lines)
            if values is None:
                break  # cut short by the budget: leave the sample out
            for k, value in zip(self.alive, values):
                self.totals[k].append(value)
            self.last_cost, self.last_alive = time.perf_counter() - began, len(self.alive)
            self.done += 1
            if self.done >= RACE_AFTER:
                self.alive = _contenders(self.totals, self.alive)

    def best(self) -> int:
        return max(self.alive, key=lambda k: sum(self.totals[k]))

    def option(self, k: int, move: Choice) -> Option:
        """Choice ``k``'s value, reported for ``move``."""
        return _sampled_option(move, self.totals[k], self.totals[self.best()])


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


def place_lines(game: Game, state: State, beam_seconds: float) -> list[list[Take]]:
    """The warm start's best lines from a place decision (placing never changes the market,
    so every place option of a sample shares them), the beam narrowed to ``beam_seconds``."""
    return warm_candidates(game, state, start_of(game, state).turns, beam_seconds, replace(HEURISTIC, candidates=PLACE_LINES))


def _sample_values(game: Game, state: State, choices: list[Choice], beam_seconds: float, pool: Executor,
                   deadline: float, abandon: bool = False, lines: list[list[Take]] | None = None) -> list[int] | None:
    """Every choice's value on ``game`` (one sampled stock order): the warm start's lines from
    the position the choice leads to, each the engine's score of an exact placement.

    The beams take about ``beam_seconds`` in all. Place options share one beam (``lines``
    if given, else ``place_lines``); a take option gets its own. An ``InShowcase`` choice
    is placed with the held card kept in its showcase, the solver picking the spot. The
    placements, the bulk of the work, run on ``pool``'s threads with one CP-SAT worker each
    (CP-SAT releases the GIL, and a placement model is too small for a portfolio to pay).
    Placements stop at ``deadline``; with ``abandon`` the whole sample is given up (None)
    once it has passed."""
    restricts: list = [None] * len(choices)
    if state.holding is None:
        afters = [(game.apply_take(state, move, check=False), None) for move in choices]
        each = beam_seconds / len(choices)
        take_lines = replace(HEURISTIC, candidates=TAKE_LINES)
        candidates = [warm_candidates(game, after, start_of(game, after).turns, each, take_lines) for after, _ in afters]
    else:
        afters = []
        for k, choice in enumerate(choices):
            if isinstance(choice, InShowcase):
                afters.append((state, None))
                restricts[k] = _held_in(choice.position)
                continue
            pinned = choice.target if choice.is_spot and state.holding.is_white and choice.declare is None else None
            afters.append((state, pinned) if pinned is not None else (game.apply_place(state, choice, check=False), None))
        shared = lines if lines is not None else place_lines(game, state, beam_seconds)
        candidates = [shared] * len(choices)

    def value(k: int) -> int | None:
        after, pinned = afters[k]
        if after.is_over:
            return solo_breakdown(game, after).total
        limit = min(PLACE_SECONDS, deadline - time.perf_counter())
        if limit < MIN_SOLVE_SECONDS:
            if abandon:
                return None
            limit = MIN_SOLVE_SECONDS
        found = place_candidates(game, after, candidates[k], limit, 1, pinned, restricts[k])
        if found is None:  # nothing placed in time (rare): a whole solve of the rest
            return value_of(game, state, _spots(choices[k])[0], limit, 1)[0]
        return found.score

    values = list(pool.map(value, range(len(choices))))
    return None if None in values else values


def _held_in(position: int):
    """A model restriction: the held card goes to the showcase at ``position``."""
    def restrict(h: SoloModel) -> None:
        h.model.add(h.shelf[h.held, position] == 1)
    return restrict


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
