"""Dives: good plans fast, for the proof by cells (``solver/cells.py``), whose cells can only
be refuted from the best plan on.

A dive is one beam of the warm start (``solver/warmstart.py``) whose best take sequences
are placed exactly (``solver.solve.place_candidates``), each placement looking only for a
plan above the best so far, so that a sequence that cannot beat it is refuted in a
fraction of the time of placing it, or skipped by its bound. The *wide dives* take the
plain beam at two widths; under ONE DECADE the *decade dives* reward the cards of one
decade; a *guided dive* rewards the cards of a hall that the relaxation without the
vehicle's walk found in a cell CP-SAT could not settle. A plan a cell finds is *polished*:
its take sequence placed exactly.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from typing import Iterable, Iterator

from solver.cards import Card
from solver.engine import Game
from solver.model import start_of
from solver.moves import Take, Turn
from solver.plan import replay
from solver.rules import Showcase
from solver.solve import Solution, place_candidates
from solver.warmstart import HEURISTIC, Heuristic, beam_candidates, outcome_key

# The wide dives' beams: about 0.5 s and 2 s. The second found nothing on most deals
# traced, but without it 12 deals took 130.1 s against 124.0 s, paired: within the spread
# (benchmarks/README.md, sixty-third session)
WIDE_WIDTHS = (1000, 3000)
WIDE_CANDIDATES = 60  # sequences of a wide dive placed (30: 200.5 s against 187.8 s over 29 deals, paired)
DECADE_BONUS = 150  # a decade dive's beam: worth of each card of the decade (the run dives' worth, of 50-200 tried)
DECADE_BEAM_WIDTH = 2000  # its width: about 1.5 s of beam
DECADE_CANDIDATES = 10  # sequences of a decade dive placed
# A guided dive's beam (``Dives.guided``): worth of each card of a cell's relaxed plan, the
# width and the sequences placed. After the first wide dive, guided dives from the relaxed
# plans of the top dozen profiles found the optimum of seeds 1, 10 and 11 in 2-7 s (seed 10's
# 2696 came from a cell after 298 s); 60 at 3000 wide found more than 150 at 2000, or 120 or
# 60 at 1000 (scratch, benchmarks/README.md)
GUIDED_BONUS = 60
GUIDED_WIDTH = 3000
GUIDED_CANDIDATES = 10
# guided dives in a row that found nothing, after which no more are made: where the best plan
# is the optimum, every one is lost (seed 18: 17 of them, about 0.8 s each, in a 60 s run).
# Over the 30 benchmark deals traced, 9 of 53 guided dives found a better plan, none after
# more than two in a row had found nothing (benchmarks/README.md, forty-seventh session)
GUIDED_FRUITLESS = 3
# at most, for placing one dive's sequences (2 s: 209.8 s against 196.2 s over 29 deals and
# 149.2 against 99.4 s on six SHORT ERA deals, paired; sixty-third session)
DIVE_SECONDS = 5.0
DIVE_THREADS = 2  # placements at once, one CP-SAT worker each (a placement is too small for a portfolio)
# at most, for placing a found plan's take sequence exactly: a cell's plan is any plan
# above a target, often not its takes' best placement (seed 22:
# a cell's 2416 placed 2458, the optimum, in 0.14 s; without it two more cells found 2438,
# then 2458: three finds, 5.9 s in a trace)
POLISH_SECONDS = 1.0


class Dives:
    """The dives still to run, in order: a dive is one beam of the warm start
    (``solver/warmstart.py``; ``beams``: the name and heuristic of each) whose best
    sequences, those no earlier dive tried, are placed exactly, each placement looking only
    for plans above the best so far (``to_beat``). ``seconds``: the time the dives have
    taken. With an ``opening`` take, the beams look from the state after it, and their
    sequences are placed from there."""

    def __init__(self, game: Game, beams: Iterable[tuple[str, Heuristic]], progress: bool,
                 opening: Take | None = None, goal: int | None = None) -> None:
        self.game, self.progress, self.opening, self.goal = game, progress, opening, goal
        self.beams = list(beams)
        start = game.initial_state()
        self.state = start if opening is None else game.apply_take(start, opening)  # where the beams look from
        self.turns = start_of(game, self.state).turns
        self.tried: set[tuple] = set()  # the ``outcome_key`` of every sequence placed
        self.guided_by: set[frozenset[Card]] = set()  # the wanted cards of the guided dives so far
        self.fruitless = 0  # guided dives in a row that found no better plan
        self.seconds = 0.0

    def run(self, best: Solution, limit: float | None, dives: int | None = None) -> Solution:
        """``best``, or a better plan from the next ``dives`` dives (all when None) within
        ``limit`` seconds."""
        started = time.perf_counter()

        def left() -> float:
            return float("inf") if limit is None else limit - (time.perf_counter() - started)

        for _ in range(len(self.beams) if dives is None else dives):
            if not self.beams or left() <= 0:
                break
            best = self._dive(*self.beams.pop(0), best, left())
        self.seconds += time.perf_counter() - started
        return best

    def guided(self, best: Solution, wanted: frozenset[Card], limit: float | None) -> Solution:
        """``best``, or a better plan from a *guided dive* within ``limit`` seconds: the beam
        rewarded for the ``wanted`` cards, the hall of a plan that the relaxation without the
        vehicle's walk found in a cell CP-SAT could not settle in its slice. Such a plan
        gathers what the cell's profile needs (the focus continent's cards, the run, the
        decades) but not along a walk the market allows; the beam looks for a walk that
        takes most of them. Each set of cards is dived once, and none after
        ``GUIDED_FRUITLESS`` guided dives in a row found nothing."""
        if (not wanted or wanted in self.guided_by or (limit is not None and limit <= 0)
                or self.fruitless >= GUIDED_FRUITLESS):
            return best
        self.guided_by.add(wanted)
        started = time.perf_counter()
        heuristic = replace(HEURISTIC, wanted=wanted, wanted_bonus=GUIDED_BONUS, width=GUIDED_WIDTH,
                            candidates=GUIDED_CANDIDATES)
        found = self._dive("guided dive", heuristic, best, DIVE_SECONDS if limit is None else limit)
        self.fruitless = 0 if found is not best else self.fruitless + 1
        self.seconds += time.perf_counter() - started
        return found

    def _dive(self, name: str, heuristic: Heuristic, best: Solution, limit: float) -> Solution:
        """``best``, or a better plan among the beam's sequences no dive tried yet, placed within ``limit``."""
        started = time.perf_counter()
        candidates = [c for c in beam_candidates(self.game, self.state, self.turns, heuristic)
                      if outcome_key(c) not in self.tried]
        self.tried.update(outcome_key(c) for c in candidates)
        found = place_candidates(self.game, self.state, candidates, min(DIVE_SECONDS, limit), 1,
                                 floor=to_beat(best, self.goal), threads=DIVE_THREADS)
        if found is not None and self.opening is not None:
            found = opened_with(self.game, self.opening, found)
        if self.progress:
            print(f"  {name}: {found.score if found else '-'}  best {(found or best).score}"
                  f"  ({time.perf_counter() - started:.2f} s)", file=sys.stderr, flush=True)
        return found or best


def dive_beams(game: Game, candidates: list[Card]) -> Iterator[tuple[str, Heuristic]]:
    """The dives' beams, in order: the *wide dives*, the warm start's beam at each of
    ``WIDE_WIDTHS`` with its ``WIDE_CANDIDATES`` best sequences (the beam's ranking is rough:
    on the 30 benchmark deals the best placed line was often its 5th-60th sequence, and 18
    of the 30 best known lines came out of these two beams, against 7 from their best four);
    with ONE DECADE, the *decade dives*, the beam rewarded for the cards of one decade (each
    decade whose candidate cards have the four continents the showcase needs, the most
    continents first: the plain dives rarely gather four cards of one decade, and
    the decade dives found better lines on 6 of the 12 deals the variants benchmark left
    open under ONE DECADE, by 6-192 points). The *run dives* that came last, the beam
    rewarded for the cards of one run of years, found nothing on 33 tries over 25 deals
    once the guided dives came (about 1.5 s each): they are gone (benchmarks/README.md,
    forty-seventh session)."""
    for width in WIDE_WIDTHS:
        yield f"wide dive {width}", replace(HEURISTIC, width=width, candidates=WIDE_CANDIDATES)
    if Showcase.ONE_DECADE in game.layout:
        for decade in _decades_to_dive(candidates):
            yield f"decade dive {1900 + 10 * decade}s", _rewarding_decade(game, decade)


def _rewarding_decade(game: Game, decade: int) -> Heuristic:
    """The beam of a decade dive: ``DECADE_BONUS`` more for each card of the ``decade`` (0-9;
    Einstein never is)."""
    cards = frozenset(c for c in game.deal.cards if c.year is not None and c.decade == decade)
    return replace(HEURISTIC, wanted=cards, wanted_bonus=DECADE_BONUS, width=DECADE_BEAM_WIDTH,
                   candidates=DECADE_CANDIDATES)


def _decades_to_dive(candidates: list[Card]) -> list[int]:
    """The decades (0-9) whose coloured ``candidates`` have at least as many continents as
    ONE DECADE has spots (its cards differ in continent, white cards are barred from it),
    the most continents first, then the most cards."""
    coloured = [c for c in candidates if c.continent is not None]
    continents = {d: {c.continent for c in coloured if c.decade == d} for d in range(10)}
    counts = {d: sum(1 for c in coloured if c.decade == d) for d in range(10)}
    fit = [d for d in range(10) if len(continents[d]) >= Showcase.ONE_DECADE.size]
    return sorted(fit, key=lambda d: (-len(continents[d]), -counts[d], d))


def opened_with(game: Game, opening: Take, found: Solution) -> Solution:
    """``found``, solved from the state after the take ``opening`` (its held card placed at
    ``found.place``), as a plan of the whole game, replayed by the engine from the start."""
    plan = [Turn(opening, found.place)] + found.plan
    outcome = replay(game, plan)
    return replace(found, score=outcome.score, plan=plan, outcome=outcome, place=None)


def to_beat(best: Solution, goal: int | None) -> int:
    """The score a plan must beat to matter: the best plan's; with a ``goal``, at least goal - 1."""
    return best.score if goal is None else max(best.score, goal - 1)


def polished(game: Game, found: Solution, deadline: float | None) -> Solution:
    """``found`` or, if better, the exact placement of its take sequence (the game free to
    stop after any take) found within ``POLISH_SECONDS`` and by ``deadline``, with one CP-SAT
    worker as the dives place theirs."""
    limit = POLISH_SECONDS if deadline is None else min(POLISH_SECONDS, deadline - time.perf_counter())
    takes = [turn.take for turn in found.plan]
    better = place_candidates(game, game.initial_state(), [takes], limit, 1, floor=found.score)
    return better or found
