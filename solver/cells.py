"""Proof by cells: close the gap between the best plan and the bound by splitting the
score into item profiles.

The whole-game model's bound stalls at the item-by-item maximum (every item at its best
over the candidate cards), which no plan reaches. But once some items are *fixed* (the
chain is exactly 4, and it runs 1991-1994; focus 7 on Europe; ...) "a plan scoring above
the best one" becomes a feasibility question that CP-SAT refutes quickly, with no
objective and strong propagation. So the plans are split into cells that together cover
every plan, each with a true upper bound of its own (the item caps with the cell's choices), and every cell whose
bound beats the best plan is either refuted, or yields a better plan, or is split finer
when its time slice runs out. The best plan is proven optimal when no cell is left open.

Each cell is first put to a relaxation without the vehicle's walk
(``build_solo_model(walk=False)``: which cards are taken, not from which column): a cell
that no set of takeable cards fills is refuted there in a fraction of the time. Both
models are built once for a proof, and each cell is asked on copies of them with its own
constraints added (``_CellModels``); a cell whose profile fixes the empty spots and the depot
cards, so that its plans play a known number of turns (16, not 19, for a full hall and an
empty depot), on copies of the two built for that many turns, every one played. A cell is
a question without objective that is mostly refuted, so it is asked of CP-SAT's complete
search workers alone (``solver.solve.feasibility_solver_for``).

A cell's constraints only restrict the items of a plan, and the model can always state a
plan's items at their exact values, so the cells of a split cover all plans of their
parent (a plan may lie in several): a refuted cell holds no plan from the target on, and
the reported bound (the largest bound of a cell still open) is a true bound. Every plan a cell yields
is replayed and scored by the engine (``solver.solve.solve``).

Splits (a cell tried for its stage's ``SLICES`` seconds is split again, unless its split
would leave so many children that may beat the best plan that trying it again with twice
the slice costs less: ``CHILD_SECONDS``; or unless the split is by a MID CENTURY card that
does not matter, every card able to beat the best plan: a mere partition): first the
*profile*, the exact values of every item but MID CENTURY (all multiples of 100), so a
profile's plans score its sum R plus the MID CENTURY card's value, and its bound R + MID
CENTURY's cap is tight; then, one at a time, which run of years the chain is, the focus
continent and the MID CENTURY card, the split with the fewest children that may beat the
best plan first (the card when a profile needs one within a few years of 1950: on seed 19
a profile of 2500 beats the best plan, 2592, only with a card of 1947-1953, where its chain
has ten runs; the focus split counts only the continents with as many candidate cards as
the profile's focus). A split that leaves one child that may beat the best plan (a chain of
4 when the cards hold one run of four years) is the parent again: the next split is made at
once, without spending a slice on it. The last cells get all the time left. Only the profiles
that may beat the best plan are made, so once the best plan is near the optimum they are
few however far above it the item caps lie (at most 44 on 38 of the 42 shipped daily
puzzles); when they are more than ``MAX_PROFILES``, a profile split fixes only the first
items (the chain first): a *grouped* profile, given ``GROUPED_SLICE`` seconds (one CP-SAT
solve for many profiles) before it is split by the items left, or split at once when at most
``SMALL_GROUP`` of its exact profiles may beat the best plan.
Cells are taken best bound first, and a cell is asked for a plan ``DESCENT`` below its
bound rather than just above the best plan: far above the optimum a refutation is quick,
so the top bounds come down step by step to the cell that holds the optimum (a grouped
profile asked at once to beat a best plan far below the optimum found none in its 8 s:
five groups in a row on a variant deal). An exact profile is asked to beat the best plan
at once (its step would admit every MID CENTURY card but the poorest, and the rest would
be refuted again from the start), and so is a cell whose step would land less than
``STEP_MIN`` above the best plan (it would ask nearly the same question twice).

CP-SAT finds good plans slowly, and a cell can only be refuted from the best plan on; so
*dives* (``solver/dives.py``) look for good plans: beams of the warm start, plain and
wide (with ONE DECADE, also rewarded for the cards of one decade), their best sequences
placed exactly. The first wide
dive comes first, from the greedy game (``solve_by_cells``); then the cells and the other
dives take turns (``improve_and_prove``), so that an easy deal, whose optimum the first
dive finds, is proven without waiting for the others.
A cell that CP-SAT does not settle in its slice is followed by a *guided dive*: the relaxation
without the walk has found a plan in it, whose hall gathers what the cell's profile needs
(the focus continent's cards, the run, the decades) along no walk the market allows; the beam
rewarded for those cards looks for a walk that takes most of them (none after
``GUIDED_FRUITLESS`` in a row found nothing). The optimum often lies in
a basin other than the best plan's (seed 11: 2690 with focus North America, 2694 with focus
Oceania and a depot card), where no dive from the warm start looks and the cells would find
it only after many slices (seed 10's 2696 after 298 s).
A plan that a cell finds is any plan above its target, often not
the best placement of its own takes: it is *polished*, its takes placed exactly (a few
hundredths of a second), before it becomes the best plan.

The same dives and cells answer a narrower question (``opening_reaches``): does a plan
that opens with a given take score a given *goal*? The whole model has the take fixed, the
dives look from the state after it, the cells are asked for the goal at least, and the
work ends at the first plan that reaches it or once every cell that may hold one is
refuted. The daily puzzles count their optimal first takes so (``puzzles/daily.py``).
"""

from __future__ import annotations

import heapq
import sys
import time
from dataclasses import dataclass, replace
from itertools import count, islice
from typing import Callable, Iterator, NamedTuple

from ortools.sat.python import cp_model

from solver.bounds import item_caps
from solver.cards import Card, Continent
from solver.dives import Dives, dive_beams, opened_with, polished, to_beat
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.model import (MID_POSITION, SoloModel, Start, build_solo_model, candidate_cards, fix_prefix,
                          play_every_turn, start_of, tie_stock_takes_to_columns, turns_to_end)
from solver.moves import Take
from solver.rules import DEPOT_SIZE, HALL_SIZE
from solver.solve import Solution, feasibility_solver_for, greedy_solution, solve

# Every score item but MID CENTURY is a multiple of 100 (x100): a plan's *profile* is their
# values, fixed in this order when a cell's profiles are too many to make at once.
PROFILE_ORDER = ("chain", "continent_focus", "decades", "years_gap", "short_era", "antiquity", "secret_decade",
                 "all_continents", "empty_spots", "depot")
PROFILE_FLOORS = {"chain": 100, "empty_spots": -100 * HALL_SIZE, "depot": -100 * DEPOT_SIZE}  # lowest value; else 0
# Children of one profile split, at most: past it the split fixes the first items only, a
# *grouped* profile. 40 was set when exact profiles were refuted one by one slowly (the
# fourteenth session: seed 28's 112 above its optimum in 42 s in all, its 35 groups of the
# first four items in 28 s); asked of their relaxation first and of models of fewer turns,
# exact profiles are now refuted in a tenth of a second where a group they make up runs
# 1.4-5 s (seed 25), and 120 proved the six benchmark deals that group in 44.7 and 43.3 s
# against 70.7 and 83.9 s (two paired rounds; 200 and 400: 52.5 and 45.4 s). Variant deals
# have more profile items, so more profiles: there 400 left one open at 60 s that 120
# proves in 12-24 s (benchmarks/README.md, sixty-second session).
MAX_PROFILES = 120
# Seconds for a cell of each stage (1: profile, 2 and 3: the next splits) before it is
# split; a cell that no split is left for gets all the time left. A profile gets 6 s: asked
# whole for the optimum + 1, the 16 profiles that ran out 2 s in a trace of the 30 benchmark
# deals were refuted in 0.1-6.0 s, where the 2 s and their splits had taken 3.6-18 s (seed
# 22: 3.1 s whole, 2.7 s and then 15.4 s over 16 children; benchmarks/README.md, forty-ninth
# session: median 9.6-10.6 s -> 8.8-9.3 s, p90 37-38 s -> 24-29 s over the 30 deals). 2 s
# had been kept over 1 s on the same evidence (seed 18's seven profiles just below its top,
# 0.6-5.6 s whole). A grouped profile gets ``GROUPED_SLICE``: split into its exact profiles
# after 1 s, one that CP-SAT refutes whole in 2-4 s became dozens of run and MID CENTURY
# cells (seed 28: 20 s and more).
SLICES = (6.0, 1.0, 4.0)
GROUPED_SLICE = 8.0
# ...but a grouped profile with at most this many exact profiles that may beat the best plan
# is split into them at once, unasked (2027-01-01: four such groups ran out their 8 s, then
# their exact profiles were refuted in 0.2-3.7 s each)
SMALL_GROUP = 4
# A cell whose slice runs out is tried again with twice the slice while that is under half
# of what its split would cost, at about this much a child that may beat the best plan
# (seed 3: a profile split after 1 s into 37 MID CENTURY cards, refuted one by one in 5 s,
# is refuted whole in 1.6 s; every card of that split may beat the best plan, which is
# now tried again however often: ``_Splitter.worth_retrying``).
CHILD_SECONDS = 0.25
DESCENT = 100  # how far a cell's bound comes down per refutation: a profile's MID CENTURY range at once
# ...but a step that lands less than this above the best plan is not taken: the cell is asked
# to beat the best plan at once, as the step would ask nearly the same question twice (seed
# 28: four grouped profiles refuted from 2699, then again from 2697, the best plan being 2696)
STEP_MIN = 50
HARVEST_SHARE = 0.3  # of the time limit, at most, for the dives
CELL_ROUND = 4.0  # seconds of cells between two dives (the second wide dive, then the decade dives)
# at most, for asking a cell's relaxation without the vehicle's walk first (``_try_cell``):
# it refutes in about 0.04 s of CP-SAT (on a copy of its model), and finds a plan of its
# own in 0.1-0.3 s. It refutes mostly cells the whole model refutes in 0.1-0.4 s, not its
# 1-7 s ones; on the 201 cells of ``benchmarks/cells.py`` (8 deals) 119.4 s -> 105.8 s,
# seed 15 slower (1.21)
RELAXED_SECONDS = 0.3


@dataclass(frozen=True)
class Limit:
    """One constraint of a cell: ``kind`` is ``item_eq`` (an item's value),
    ``run`` (the longest chain is the run of years ``value``), ``focus`` (the focus
    continent) or ``mid`` (the MID CENTURY card's model index; None: empty). A model of
    fewer turns from the same start (``_CellModels.for_cell``) has the same cards in the same
    order, but for the stock cards drawn too late: a run or card it lacks is in none of its
    plans."""

    kind: str
    value: object
    item: str = ""

    def apply(self, h: SoloModel) -> None:
        m = h.model
        if self.kind == "item_eq":
            m.add(h.items[self.item] == self.value)
        elif self.kind == "run" and self.value not in h.runs:
            m.add_bool_or([])  # its years are not all among the model's cards (a model of fewer turns)
        elif self.kind == "run":
            m.add(h.runs[self.value] == 1)
            first, last = self.value
            tie_stock_takes_to_columns(h, range(first, last + 1))  # every year of the run is needed
        elif self.kind == "focus":
            m.add(h.focus_on[self.value] == 1)
        elif self.kind == "mid" and self.value is None:
            m.add(sum(v for (_, p), v in h.shelf.items() if p == MID_POSITION) == 0)
        elif self.kind == "mid" and (self.value, MID_POSITION) not in h.shelf:
            m.add_bool_or([])  # a stock card that a model of fewer turns cannot take
        elif self.kind == "mid":
            m.add(h.shelf[self.value, MID_POSITION] == 1)
        else:
            raise ValueError(f"unknown cell limit {self.kind}")

    def __str__(self) -> str:
        if self.kind == "item_eq":
            return f"{self.item}={self.value}"
        if self.kind == "run":
            return f"run {self.value[0]}-{self.value[1]}"
        if self.kind == "focus":
            return f"focus {Continent(self.value).name}"
        return f"mid {self.value}"


@dataclass(frozen=True)
class Cell:
    caps: int  # the sum of the item caps with the cell's limits
    stage: int  # how many splits made it: 0 none (all plans), 1 profile, then run, focus and MID CENTURY card
    limits: tuple[Limit, ...] = ()
    refuted_from: int | None = None  # no plan of the cell scores this much (the cell or a parent refuted it)
    retries: int = 0  # how often its slice ran out and it was tried again with twice the slice, not split

    @property
    def bound(self) -> int:
        """No plan of the cell scores more."""
        return self.caps if self.refuted_from is None else min(self.caps, self.refuted_from - 1)

    def restrict(self, h: SoloModel) -> None:
        for limit in self.limits:
            limit.apply(h)

    def __str__(self) -> str:
        return ", ".join(str(limit) for limit in self.limits) or "all plans"


@dataclass
class CellProof:
    """The outcome: the best plan (engine-scored, carrying the bound and status), how many
    cells were refuted and are still open, and the time it all took."""

    solution: Solution
    refuted: int
    open_cells: int
    seconds: float

    @property
    def bound(self) -> int:
        return self.solution.bound

    @property
    def status(self) -> str:
        return self.solution.status


class _Splitter:
    """The children of a cell: together they hold all its plans that score above a given
    score, each child with its own bound. With an ``opening`` take, every plan opens with it:
    its model has the take fixed (the caps, over all plans, hold for these too)."""

    def __init__(self, game: Game, opening: Take | None = None) -> None:
        self.caps, self.opening = item_caps(game), opening
        self.model = _whole_model(game, opening)  # read for its runs and MID CENTURY cards; cells are asked on copies
        self.profiled = [item for item in PROFILE_ORDER if item in self.caps]
        self.cards = candidate_cards(start_of(game))  # what the game can put in the hall
        self.per_continent = [sum(1 for c in self.cards if c.continent == k) for k in Continent]

    def children(self, cell: Cell, above: int) -> list[Cell] | None:
        """None after the last split; an empty list when no plan of the cell scores above ``above``."""
        if self._profiling(cell):
            return self._profile(cell, above)
        splits = self._splits(cell)
        if not splits:
            return None
        # the split with the fewest children that may beat ``above``: the MID CENTURY card
        # when the profile needs one near 1950, else the run, else the focus
        chosen = min(splits, key=lambda children: sum(1 for child in children if child.bound > above))
        promising = [child for child in chosen if child.bound > above]
        if len(promising) == 1 and not self.is_last(promising[0]):
            # one child holds every plan that matters (a chain with one run of its length):
            # it is the parent again, so split it at once rather than spend a slice on it
            return [child for child in chosen if child.bound <= above] + self.children(promising[0], above)
        return chosen

    def is_exact(self, cell: Cell) -> bool:
        """Whether the cell fixes every item of the profile."""
        return cell.stage >= 1 and len(_fixed(cell)) == len(self.profiled)

    def slice_of(self, cell: Cell) -> float:
        """Seconds for the cell before it is split (``SLICES``, ``GROUPED_SLICE``), twice as
        many for each time it was tried again instead."""
        grouped = cell.stage == 1 and not self.is_exact(cell)
        first = GROUPED_SLICE if grouped else SLICES[min(cell.stage, len(SLICES)) - 1]
        return first * 2 ** cell.retries

    def is_small_group(self, cell: Cell, above: int) -> bool:
        """Whether the cell is a grouped profile whose split leaves at most ``SMALL_GROUP``
        children that may beat ``above``, all of them exact profiles: split at once."""
        if cell.stage != 1 or self.is_exact(cell):
            return False
        children = self._profile(cell, above)
        return len(children) <= SMALL_GROUP and all(self.is_exact(child) for child in children)

    def worth_retrying(self, cell: Cell, children: list[Cell], above: int) -> bool:
        """Whether a cell whose slice ran out is better tried again with twice the slice
        than split into ``children``: when that slice is under half of what its children
        that may beat ``above`` are expected to take (``CHILD_SECONDS`` each), and always
        when they are its split by a MID CENTURY card that does not matter: every card,
        and none, may beat ``above`` (the cell's other items beat it already), so the
        children only partition the cell by a free card, each about as hard as the whole
        (seed 24: 37 children refuted one by one in 26 s, the cell whole in 2-5 s)."""
        promising = [child for child in children if child.bound > above]
        mid_is_free = bool(promising) and promising == [child for child in children if child.limits[-1].kind == "mid"]
        return cell.stage >= 1 and (mid_is_free or len(promising) * CHILD_SECONDS >= 4 * self.slice_of(cell))

    def is_last(self, cell: Cell) -> bool:
        """Whether no split is left for the cell."""
        return not self._profiling(cell) and not self._splits(cell)

    def _profiling(self, cell: Cell) -> bool:
        return cell.stage == 0 or (cell.stage == 1 and len(_fixed(cell)) < len(self.profiled))

    def _splits(self, cell: Cell) -> list[list[Cell]]:
        """The children by each split not yet made: run, focus, MID CENTURY card."""
        return [children for children in (self._run(cell), self._focus(cell), self._mid(cell)) if children is not None]

    def _child(self, cell: Cell, caps: int, *limits: Limit, stage: int | None = None) -> Cell:
        return Cell(caps, cell.stage + 1 if stage is None else stage, cell.limits + limits, cell.refuted_from)

    def _profile(self, cell: Cell, above: int) -> list[Cell]:
        """The profiles whose plans may score above ``above`` and at most the cell's bound: their
        items sum to R with above < R + MID CENTURY's cap and R <= the bound, and the child's
        bound R + MID CENTURY's cap is exact but for that one item. When there would be more
        than ``MAX_PROFILES``, only the first few items left are fixed (in ``PROFILE_ORDER``),
        the others at most their caps, and those cells are split again by the items left."""
        fixed = _fixed(cell)
        base, mid_cap = sum(fixed.values()), self.caps["mid_century"]
        todo = [item for item in self.profiled if item not in fixed]
        for k in range(len(todo), 0, -1):
            items, rest = todo[:k], todo[k:]
            ranges = [range(PROFILE_FLOORS.get(item, 0), self.caps[item] + 1, 100) for item in items]
            rest_caps = sum(self.caps[item] for item in rest)
            low = above + 1 - mid_cap - base - rest_caps
            high = cell.bound - base - sum(PROFILE_FLOORS.get(item, 0) for item in rest)
            profiles = list(islice(_sums(ranges, low, high), MAX_PROFILES + 1))
            if len(profiles) <= MAX_PROFILES or k == 1:
                break
        return [self._child(cell, base + sum(values) + rest_caps + mid_cap,
                            *(Limit("item_eq", v, item) for item, v in zip(items, values)), stage=1)
                for values in profiles]

    def _run(self, cell: Cell) -> list[Cell] | None:
        """By the run of years the chain is (None when done, or for a chain of 1: no run to choose)."""
        length = next(limit.value for limit in cell.limits if limit.item == "chain") // 100
        if length == 1 or _split_by(cell, "run"):
            return None
        runs = [run for run in self.model.runs if run[1] - run[0] + 1 == length]
        return [self._child(cell, cell.caps, Limit("run", run)) for run in runs]

    def _focus(self, cell: Cell) -> list[Cell] | None:
        """By the focus continent: only those with as many candidate cards as the profile's
        focus (a continent short of them holds no plan of the cell)."""
        if _split_by(cell, "focus"):
            return None
        focus = _fixed(cell)["continent_focus"] // 100
        return [self._child(cell, cell.caps, Limit("focus", k)) for k in range(6) if self.per_continent[k] >= focus]

    def _mid(self, cell: Cell) -> list[Cell] | None:
        if _split_by(cell, "mid"):
            return None
        cap = self.caps["mid_century"]
        out = []
        for (i, p) in self.model.shelf:
            c = self.model.cards[i]
            if p == MID_POSITION:
                value = 0 if c.is_einstein else 100 - 2 * abs(c.year - 1950)
                out.append(self._child(cell, cell.caps - cap + value, Limit("mid", i)))
        return out + [self._child(cell, cell.caps - cap, Limit("mid", None))]


def _whole_model(game: Game, opening: Take | None, turn_limit: int | None = None) -> SoloModel:
    """The whole model of the game (of ``turn_limit`` turns at most), its ``opening`` take
    fixed if any: the model the cells of a proof are asked of."""
    h = build_solo_model(game, turn_limit=turn_limit)
    if opening is not None:
        fix_prefix(h, [opening])
    return h


def _split_by(cell: Cell, kind: str) -> bool:
    return any(limit.kind == kind for limit in cell.limits)


def _fixed(cell: Cell) -> dict[str, int]:
    """The items the cell fixes (its profile so far)."""
    return {limit.item: limit.value for limit in cell.limits if limit.kind == "item_eq"}


def _sums(ranges: list[range], low: int, high: int) -> Iterator[tuple[int, ...]]:
    """Every choice of one value from each range whose sum lies in [low, high]."""
    if not ranges:
        if low <= 0 <= high:
            yield ()
        return
    first, rest = ranges[0], ranges[1:]
    least, most = sum(r[0] for r in rest), sum(r[-1] for r in rest)
    for value in first:
        if low - value <= most and high - value >= least:
            for tail in _sums(rest, low - value, high - value):
                yield (value, *tail)


def _target(bound: int, best: int, exact: bool) -> int:
    """The score a cell is asked to reach: a step below its bound (refuting a target above
    the optimum is quick, and the top cells' bounds come down to the optimum step by step,
    where the cell that holds it finds it), never below the best plan. An ``exact``
    profile's plans score its sum plus the MID CENTURY card's value, so a step below its
    bound already admits every card but the poorest: it is asked to beat the best plan at
    once (a step first, then the rest, refuted the same profile twice: seed 4, 4.5 s then 3 s);
    so is any cell whose step would land less than ``STEP_MIN`` above the best plan."""
    step = bound - DESCENT + 1
    return step if not exact and step >= best + 1 + STEP_MIN else best + 1


class _CellModels:
    """The game's whole model and its relaxation without the vehicle's walk, built once:
    each cell is asked on a copy of them (``SoloModel.copy``, about 1 ms) with its own
    constraints added, not on models built anew (0.04 s and 0.03 s of Python a cell): on the
    cells of ``benchmarks/cells.py``, the whole model copied took 0.92 of the time it took
    built for each cell.

    A cell's plans that reach its target play a limited number of turns, by the empty spots
    and depot cards they may have (``_turns_of``): exactly 16 for a profile with a full hall
    and no depot card, at most 17 for a cell one step of the descent below caps that leave
    the two free, against the 19 a game may play. The cell is asked of the same two models
    built with that turn limit (once each per limit), which have fewer turns and lack the
    stock cards drawn too late, and, where the profile fixes both (unless a full depot may
    end the game earlier), every turn played. Recorded cells of 22 benchmark deals: the
    whole model with the turn limit 0.52-0.60 of the time, every turn played 0.8 of that
    again; the relaxation 0.64, refuting 41 cells where it refuted 32 (benchmarks/README.md,
    fifty-ninth session)."""

    def __init__(self, game: Game, whole: SoloModel, opening: Take | None = None) -> None:
        self.game, self.opening = game, opening  # ``whole`` has the opening fixed
        self.whole = whole
        self.relaxed = build_solo_model(game, walk=False)  # no opening: it holds every plan
        self._shorter: dict[tuple[int, bool], tuple[SoloModel, SoloModel]] = {}

    def for_cell(self, cell: Cell, target: int) -> tuple[SoloModel, SoloModel]:
        """The whole model and the relaxation to ask ``cell`` of for a plan scoring
        ``target`` (copy them first)."""
        turns, exactly = _turns_of(cell, target, self.whole.start)
        if not 0 < turns < self.whole.turns:
            return self.whole, self.relaxed
        every = exactly and not self.game.rules.depot_full_ends_game
        if (turns, every) not in self._shorter:
            whole = _whole_model(self.game, self.opening, turns)
            relaxed = build_solo_model(self.game, turn_limit=turns, walk=False)
            if every:
                play_every_turn(whole)
                play_every_turn(relaxed)
            self._shorter[turns, every] = whole, relaxed
        return self._shorter[turns, every]


def _turns_of(cell: Cell, target: int, start: Start) -> tuple[int, bool]:
    """The most turns a plan of ``cell`` scoring ``target`` plays, by the empty spots and
    depot cards it may have (``turns_to_end``), and whether the cell fixes both (it plays
    exactly so many). One the cell leaves free counts 0 in its caps, so a plan reaching the
    target has at most (caps - target) / 100 of those together: the longer games lose too
    much. Where none may reach it, the whole game's turns (the cell is refuted anyway)."""
    fixed = _fixed(cell)
    empties = [-fixed["empty_spots"] // 100] if "empty_spots" in fixed else range(HALL_SIZE + 1)
    depots = [-fixed["depot"] // 100] if "depot" in fixed else range(DEPOT_SIZE + 1)
    turns = [turns_to_end(start, empty, depot) for empty in empties for depot in depots
             if 100 * ((0 if "empty_spots" in fixed else empty) + (0 if "depot" in fixed else depot))
             <= cell.caps - target]
    return max(turns, default=start.turns), "empty_spots" in fixed and "depot" in fixed


def _try_cell(game: Game, models: _CellModels, cell: Cell, target: int, limit: float | None,
              workers: int) -> tuple[str, Solution | None, frozenset[Card]]:
    """Ask CP-SAT for a plan of the cell scoring ``target`` or more: ``("refuted", None,
    hall)``, ``("better", plan, hall)``, or ``("split", None, hall)`` when the time runs out
    first. The model without the vehicle's walk is asked first: where it has no such plan,
    no game has; ``hall`` is that of the plan it found (``_RelaxedAnswer``; empty if none),
    for a guided dive."""
    started = time.perf_counter()
    whole, relaxed_model = models.for_cell(cell, target)
    relaxed = _ask_without_walk(relaxed_model, cell, target,
                                RELAXED_SECONDS if limit is None else min(RELAXED_SECONDS, limit), workers)
    if relaxed.refuted:
        return "refuted", None, relaxed.hall
    if limit is not None:
        limit = max(0.01, limit - (time.perf_counter() - started))
    return (*_ask_whole_model(game, whole, cell, target, limit, workers), relaxed.hall)


def _ask_whole_model(game: Game, whole: SoloModel | None, cell: Cell, target: int, limit: float | None,
                     workers: int) -> tuple[str, Solution | None]:
    """``_try_cell``'s answer from the whole model alone: ``whole`` copied, or with None a
    model built for the cell (``benchmarks/cells.py`` times both)."""
    try:
        found = solve(game, time_limit=limit, workers=workers, at_least=target, restrict=cell.restrict,
                      warm_start=False, model=None if whole is None else whole.copy())
    except ExhibitionError:  # nothing either way within the time
        return "split", None
    return ("refuted", None) if found is None else ("better", found)


class _RelaxedAnswer(NamedTuple):
    """What the relaxation without the vehicle's walk says of a cell: ``refuted``, no plan
    of it scores the target; else ``hall``, the coloured and 1945 cards in the hall of a plan
    it found (empty when it found none in its time)."""

    refuted: bool
    hall: frozenset[Card]


def _ask_without_walk(relaxed: SoloModel, cell: Cell, target: int, limit: float, workers: int) -> _RelaxedAnswer:
    """Ask the relaxation without the vehicle's walk (``relaxed``, built by
    ``build_solo_model(walk=False)``, copied) for a plan of the cell scoring ``target``,
    within ``limit`` seconds."""
    h = relaxed.copy()
    h.model.add(h.score >= target)
    cell.restrict(h)
    h.model.clear_objective()
    solver = feasibility_solver_for(limit, workers)
    status = solver.solve(h.model)
    if status == cp_model.INFEASIBLE:
        return _RelaxedAnswer(True, frozenset())
    if status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return _RelaxedAnswer(False, frozenset())
    hall = frozenset(h.cards[i] for (i, _), v in h.shelf.items() if h.cards[i].year is not None and solver.value(v))
    return _RelaxedAnswer(False, hall)


# A guided dive (``Dives.guided``): the best plan and a cell's relaxed hall -> the best plan after it
Guide = Callable[[Solution, frozenset[Card]], Solution]


class _OpenCells:
    """A proof by cells in progress: the cells not yet refuted, best bound first, worked on
    in rounds between which the best plan may improve (a dive's; with a ``guide``, after
    each cell that CP-SAT does not settle in its slice, a guided dive from the plan the
    relaxation found in it). A refutation holds whatever the best plan (``refuted_from``
    is a score no plan of the cell reaches), so the cells carry over from round to round.
    With a ``goal``, only plans scoring that much matter: the cells are asked for them at
    least, and the work ends when one is found.
    The relaxation without the walk has no opening take fixed: it holds every plan, so
    what it refutes stays refuted."""

    def __init__(self, game: Game, splitter: _Splitter, ceiling: int | None, deadline: float | None, workers: int,
                 progress: bool, goal: int | None = None, guide: Guide | None = None) -> None:
        self.game, self.splitter, self.deadline, self.workers, self.progress = game, splitter, deadline, workers, progress
        self.goal, self.guide = goal, guide
        self.models = _CellModels(game, splitter.model, splitter.opening)
        self.started = time.perf_counter()
        self.order = count()
        # the ceiling holds for every plan: the cells' descent starts from it, not from the caps
        root = Cell(sum(splitter.caps.values()), 0, refuted_from=None if ceiling is None else ceiling + 1)
        self.heap = [(-root.bound, next(self.order), root)]
        self.refuted = 0

    def settled(self, best: Solution) -> bool:
        """Whether no open cell may beat the best plan (``to_beat``), or the best plan reaches the goal."""
        if self.goal is not None and best.score >= self.goal:
            return True
        return not self.heap or -self.heap[0][0] <= to_beat(best, self.goal)

    def _push(self, cell: Cell) -> None:
        heapq.heappush(self.heap, (-cell.bound, next(self.order), cell))

    def work(self, best: Solution, seconds: float | None) -> Solution:
        """``best`` or a better plan, after working on the cells until the best plan is
        proven, or for about ``seconds`` (a cell begun is given its whole slice, up to the
        deadline; None: until the deadline)."""
        round_end = None if seconds is None else time.perf_counter() + seconds
        while not self.settled(best):
            now = time.perf_counter()
            left = None if self.deadline is None else self.deadline - now
            if (left is not None and left <= 0) or (round_end is not None and now >= round_end):
                break
            _, _, cell = heapq.heappop(self.heap)
            if cell.stage == 0:
                outcome = "split"  # the root, all plans: asked whole, it would be the whole-game solve
            elif self.splitter.is_small_group(cell, to_beat(best, self.goal)):
                outcome = "split"  # its few exact profiles are asked instead
            else:
                last = self.splitter.is_last(cell)
                limit = left if last else self.splitter.slice_of(cell)
                beat = to_beat(best, self.goal)
                target = _target(cell.bound, beat, self.splitter.is_exact(cell))
                limit = limit if left is None else min(limit, left)
                outcome, found, relaxed_hall = _try_cell(self.game, self.models, cell, target, limit, self.workers)
                if found is not None:  # with a goal, it reaches it: done (polishing might change the opening)
                    best = found if self.goal is not None else polished(self.game, found, self.deadline)
                if outcome == "split" and self.guide is not None:
                    best = self.guide(best, relaxed_hall)
                if outcome == "refuted":
                    self.refuted += 1
                    cell = replace(cell, refuted_from=target)
            if outcome == "split":
                beat = to_beat(best, self.goal)
                children = self.splitter.children(cell, beat)
                if children is not None and self.splitter.worth_retrying(cell, children, beat):
                    again = replace(cell, retries=cell.retries + 1)
                    children, outcome = [again], f"again with {self.splitter.slice_of(again):g} s"
                for child in [cell] if children is None else children:  # past the last split: again, with the time left
                    self._push(child)
            else:  # refuted from the target on, or better plan found: the cell may hold one above it
                self._push(cell)
            if self.progress:
                print(f"  {time.perf_counter() - self.started:7.2f}s  cell [{cell}] bound {cell.bound}: {outcome}"
                      f"  best {best.score}", file=sys.stderr, flush=True)
        return best

    def proof(self, best: Solution, started: float) -> CellProof:
        """``best`` with the bound of the cells still open, as the outcome of a proof begun at ``started``."""
        bound = max([best.score] + [-b for b, _, _ in self.heap])
        solution = replace(best, bound=bound, status="optimal" if bound == best.score else "feasible")
        return CellProof(solution, self.refuted, sum(1 for b, _, _ in self.heap if -b > best.score),
                         time.perf_counter() - started)


def prove_by_cells(game: Game, best: Solution, time_limit: float | None, workers: int = 8,
                   progress: bool = False, ceiling: int | None = None) -> CellProof:
    """Raise ``best`` (a plan, engine-scored) to the optimum and prove it, or return the best
    plan and bound when ``time_limit`` runs out. ``ceiling``: a true bound of the game found
    otherwise (a whole-game model's, or a shipped puzzle's), which the reported bound never
    exceeds."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    cells = _OpenCells(game, _Splitter(game), ceiling, deadline, workers, progress)
    return cells.proof(cells.work(best, None), started)


def solve_by_cells(game: Game, time_limit: float | None, workers: int = 8, progress: bool = False) -> CellProof:
    """``improve_and_prove`` from the greedy game: its first wide dive gives the first good
    plan. A whole-game solve came first until the sixtieth session: of its 1.5 s, 1.2 s were
    the warm start, the same beam as the first wide dive's with four of its sequences placed,
    and CP-SAT's 0.3 s left its bound at the item caps' sum on all 30 benchmark deals and
    improved one plan of the 30 (benchmarks/README.md)."""
    started = time.perf_counter()
    proof = improve_and_prove(game, greedy_solution(game), time_limit, workers, progress)
    solution = replace(proof.solution, seconds=time.perf_counter() - started)
    return replace(proof, solution=solution, seconds=solution.seconds)


def improve_and_prove(game: Game, best: Solution, time_limit: float | None, workers: int = 8, progress: bool = False,
                      ceiling: int | None = None, opening: Take | None = None, goal: int | None = None) -> CellProof:
    """From a known plan (engine-scored) and a true bound ``ceiling``: the first wide dive,
    then the cells and the other dives (the second wide dive, the decade dives) in turn,
    ``CELL_ROUND`` seconds of cells between two dives (on an easy deal the first dive finds
    the optimum and the first rounds prove it; on a hard one a later dive's better plan
    makes every later refutation easier), and a guided dive after each cell left unsettled
    in its slice, the dives taking at most ``HARVEST_SHARE`` of the time; the cells get the
    time left. Both wide dives before the cells took 9% longer over
    23 benchmark deals, 20% over 10 paired, most of it on two deals (``benchmarks/README.md``,
    sixteenth session).

    With an ``opening`` take, only the plans that open with it (``best`` one of them); with
    a ``goal``, only the plans scoring that much: the answer is settled once a plan reaches
    it or every cell that may hold one is refuted (``opening_reaches``)."""
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    splitter = _Splitter(game, opening)
    dives = Dives(game, dive_beams(game, splitter.cards), progress, opening, goal)

    def dive_time() -> float | None:
        """What the dives may still take."""
        if deadline is None:
            return None
        return min(HARVEST_SHARE * time_limit - dives.seconds, deadline - time.perf_counter())

    cells = _OpenCells(game, splitter, ceiling, deadline, workers, progress, goal,
                       guide=lambda best_now, hall: dives.guided(best_now, hall, dive_time()))

    best = dives.run(best, dive_time(), 1)
    while not cells.settled(best) and (deadline is None or time.perf_counter() < deadline):
        more_dives = bool(dives.beams) and (dive_time() is None or dive_time() > 0)
        best = cells.work(best, CELL_ROUND if more_dives else None)
        if more_dives and not cells.settled(best):
            best = dives.run(best, dive_time(), 1)
    return cells.proof(best, started)


def opening_reaches(game: Game, opening: Take, goal: int, time_limit: float | None, workers: int = 8,
                    progress: bool = False) -> bool | None:
    """Whether a plan that opens with the take ``opening`` scores ``goal`` or more: True (one
    found, engine-scored), False (proven: every cell that may hold one refuted), None (not
    settled within ``time_limit`` seconds). The dives and the cells of ``improve_and_prove``
    with the opening fixed, from the greedy game after it (the first dive's beam is the warm
    start's): a dive often finds such a plan in a second, where CP-SAT with the take fixed
    took 20-30 s, and the cells refute where it ran out of time (benchmarks/README.md,
    fortieth session)."""
    after = game.apply_take(game.initial_state(), opening)
    first = opened_with(game, opening, greedy_solution(game, after))
    best = improve_and_prove(game, first, time_limit, workers, progress, opening=opening, goal=goal).solution
    if best.score >= goal:
        return True
    return False if best.bound < goal else None
