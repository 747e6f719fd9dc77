"""A quick good plan to start CP-SAT from (a *warm start*), also the cheap evaluator of a
whole game where an exact solve would cost too much.

CP-SAT proves well but, on the whole game, finds good plans slowly: after one second its
best is often 500-700 points under the optimum. This module finds a strong plan in a
second or two, in two steps:

1. a beam search over take sequences (market dynamics only, no placement), ranking
   partial sequences by the *potential* of the cards taken: the solo score items that
   depend on the card set alone (decades, continent focus up to what the layout holds,
   chain, all six continents, the best MID CENTURY card, the secret decade), an estimate
   of YEARS GAP (or ANTIQUITY) from the taken extremes and the market as it stands, a
   reward per card up to the 16 hall spots and the depot's cost beyond them (with ONE
   DECADE, its four spots count only as many cards as the best decade has years, with
   LINKS its third spot only for three linked years: without this the beam's lines left
   these showcases a card short, 100-200 points under the optimum on the variants
   benchmark's deals); from a hall with cards in it, a coloured card that no empty spot
   takes as it stands scores nothing and costs a depot card (``_misfits``: the hints'
   samples start from such halls). Cards are small integers and the items are kept as bit
   masks and counts, what a card adds is made once, and a column after a take is made once
   and then looked up, so a node costs about five microseconds;
2. the exact placement of the few best complete sequences by the CP-SAT model with the
   takes fixed and the game free to stop after any of them (``solve(..., takes,
   stop_early=True)``, done in ``solver/solve.py``).

The plan is replayed by the engine like every other and handed to the whole-game model as
a solution hint (``add_plan_hint``), from which CP-SAT's local search improves quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, NamedTuple, Sequence

from solver.cards import FIRST_YEAR, Card, Continent
from solver.engine import Game
from solver.moves import DEPOT, END, Take
from solver.model import start_of
from solver.rules import BASE_LAYOUT, HALL_SIZE, Showcase, focus_most, showcase_of
from solver.state import State

if TYPE_CHECKING:
    from solver.model import SoloModel
    from solver.solve import Solution

CARD_REWARD = 60  # per card up to the 16 hall spots: filling the hall is worth about this much
DECADE_YEARS = (1 << 10) - 1  # the ten year bits of one decade
LINK_YEARS = 5  # LINKS: neighbours of different continents at most this many years apart
SCORED_LIMIT = 5  # YEARS GAP and ANTIQUITY: 5 minus the available cards beyond the card(s)


@dataclass(frozen=True)
class Heuristic:
    """How the beam ranks and picks take sequences."""

    width: int = 1000  # nodes kept per turn
    candidates: int = 4  # complete take sequences placed exactly; the best placement wins
    depot_cost: int = 100  # per card beyond the 16 spots: it can only go to the depot
    scored_estimate: bool = True  # estimate YEARS GAP / ANTIQUITY from the extremes and the market
    secret_decade: bool = True  # count the secret decade's cards
    mid_of_1945: bool = True  # the 1945 card's year counts for MID CENTURY
    complete_early: bool = True  # a sequence is complete once its cards could fill the hall
    by_layout: bool = True  # the variations in force shape the potential (focus most, ONE DECADE's and LINKS' spots)
    by_hall: bool = True  # a coloured card with no legal spot in the hall as it stands counts as a depot card
    wanted: frozenset = frozenset()  # cards worth ``wanted_bonus`` more each (a cell's run of years)
    wanted_bonus: int = 0


HEURISTIC = Heuristic()
# The first version, frozen: the daily selection rule v1 screens its candidates with it, so
# changing it would change past puzzles (puzzles/daily.py).
FIRST_HEURISTIC = Heuristic(width=100, candidates=1, depot_cost=0, scored_estimate=False, secret_decade=False,
                            mid_of_1945=False, complete_early=False, by_layout=False, by_hall=False)


class _Node(NamedTuple):
    """A beam node: the market and vehicle after some takes, and the taken cards' items."""

    market: tuple[tuple[int, ...], ...]  # card indices per column, ascending years
    vehicle: int
    takes: tuple[Take, ...]
    owned: int  # cards in hall, held or taken
    decades: int  # bit d: a card of decade d
    years: int  # bit y - 1900: a card of year y (Einstein has none)
    counts: tuple[int, ...]  # coloured cards per continent
    mid: int  # best MID CENTURY value among the cards
    secret: int  # cards in the secret decade
    market_years: int  # bit y - 1900: a market card of year y
    misfits: int = 0  # cards taken that no spot of the hall as it stands takes: depot cards, scoring nothing


_CARD_ITEMS = ("owned", "decades", "years", "counts", "mid", "secret")  # the node's fields a card owned changes
_card_items_of = attrgetter(*_CARD_ITEMS)  # a node's _CARD_ITEMS, as a tuple
_new_node = tuple.__new__  # a _Node from a tuple of all its fields, without the keyword handling of _Node()


def _longest_run(mask: int) -> int:
    """Length of the longest run of set bits (the chain of years)."""
    run = 0
    while mask:
        mask &= mask >> 1
        run += 1
    return run or 1


class _Beam:
    """The deal's cards as integers, and the potential of a node under the game's rules."""

    def __init__(self, game: Game, state: State, heuristic: Heuristic) -> None:
        self.heuristic = heuristic
        self.cards: list[Card] = []
        self.index: dict[Card, int] = {}
        for c in [c for column in state.market for c in column] + list(game.deal.stock[state.drawn:]):
            self.index[c] = len(self.cards)
            self.cards.append(c)
        self.stock = [self.index[c] for c in game.deal.stock[state.drawn:]]
        # each card's takes, made once (a node's children reuse them): (vehicle after, take)
        self.takes = [tuple((int(to), Take(c, to)) for to in Continent) if c.is_white else ((int(c.continent), Take(c)),)
                      for c in self.cards]
        self.year_bit = [0 if c.year is None else 1 << (c.year - FIRST_YEAR) for c in self.cards]
        self.sort_key = [c.sort_key() for c in self.cards]
        self.after_take: dict[tuple, tuple[int, ...]] = {}  # (column, card taken, refill) -> the column after
        self.bumped: dict[tuple, tuple[int, ...]] = {}  # (continent counts, continent) -> the counts with one more
        self.by_counts: dict[tuple, int] = {}  # continent counts -> the items they give (focus, all six)
        layout = game.layout
        self.gap = heuristic.scored_estimate and Showcase.GAP in layout
        self.antiquity = heuristic.scored_estimate and Showcase.ANTIQUITY in layout
        self.secret_decade = game.rules.secret_decade if heuristic.secret_decade else None
        self.focus_most = focus_most(layout if heuristic.by_layout else BASE_LAYOUT)
        self.one_decade = heuristic.by_layout and Showcase.ONE_DECADE in layout
        self.links = heuristic.by_layout and Showcase.LINKS in layout
        self.wanted = sum(1 << (c.year - FIRST_YEAR) for c in heuristic.wanted if c.year is not None)
        self.misfit = _misfits(game, state, self.cards) if heuristic.by_hall else frozenset()
        self.room_varies = self.one_decade or self.links
        self.adds = [self._adds(c) for c in self.cards]
        owned = list(state.board.hall_cards) + ([state.holding] if state.holding is not None else [])
        node = _Node(tuple(tuple(self.index[c] for c in column) for column in state.market), state.board.vehicle,
                     (), 0, 0, 0, (0,) * len(Continent), 0, 0, 0)
        for c in owned:
            node = self._with_card(node, c)
        self.root = node._replace(market_years=sum(self.year_bit[i] for column in node.market for i in column))

    def _adds(self, c: Card) -> tuple:
        """What owning ``c`` adds to a node's items, made once a card: its continent (None
        for a white card), decade bit, year bit, MID CENTURY value (-1 when it has none)
        and whether it lies in the secret decade."""
        if c.year is None:
            return None, 0, 0, -1, 0
        mid = -1 if c.is_white and not self.heuristic.mid_of_1945 else 100 - 2 * abs(c.year - 1950)
        continent = None if c.continent is None else int(c.continent)
        return continent, 1 << c.decade, 1 << (c.year - FIRST_YEAR), mid, int(c.decade == self.secret_decade)

    def _with_card(self, node: _Node, c: Card) -> _Node:
        """``node`` with ``c`` among the owned cards (market untouched)."""
        return node._replace(**dict(zip(_CARD_ITEMS, self._card_items(node, self._adds(c)))))

    def _card_items(self, node: _Node, adds: tuple) -> tuple:
        """The node's ``_CARD_ITEMS`` once a card that ``adds`` these is owned too."""
        continent, decade_bit, year_bit, mid, secret = adds
        counts = node.counts
        if continent is not None:
            bumped = self.bumped.get((counts, continent))
            if bumped is None:
                bumped = self.bumped[counts, continent] = counts[:continent] + (counts[continent] + 1,) + counts[continent + 1:]
            counts = bumped
        return (node.owned + 1, node.decades | decade_bit, node.years | year_bit, counts,
                mid if mid > node.mid else node.mid, node.secret + secret)

    def _column_after(self, column: tuple[int, ...], i: int, refill: int | None) -> tuple[int, ...]:
        """``column`` once card ``i`` is taken from it and ``refill`` put in, in market order."""
        rest = [x for x in column if x != i] + ([refill] if refill is not None else [])
        rest.sort(key=self.sort_key.__getitem__)
        after = self.after_take[column, i, refill] = tuple(rest)
        return after

    def children(self, node: _Node, turn: int):
        """Every node one take later: each card of the vehicle's column (a white card to each
        column); the refill is the stock card of this turn. Each child is built in one go
        (not by ``_replace`` after ``_replace``), a column after a take is made once and
        looked up after that: building nodes is most of the beam's time."""
        vehicle = node.vehicle
        column = node.market[vehicle]
        refill = self.stock[turn] if turn < len(self.stock) else None
        refill_bit = self.year_bit[refill] if refill is not None else 0
        left, right = node.market[:vehicle], node.market[vehicle + 1:]
        kept = _card_items_of(node)  # a misfit card changes none of them
        for i in column:
            after = self.after_take.get((column, i, refill))
            if after is None:
                after = self._column_after(column, i, refill)
            market = left + (after,) + right
            seen = node.market_years & ~self.year_bit[i] | refill_bit
            misfit = i in self.misfit
            items = kept if misfit else self._card_items(node, self.adds[i])  # in _Node's field order
            for to, take in self.takes[i]:
                yield _new_node(_Node, (market, to, node.takes + (take,), *items, seen, node.misfits + misfit))

    def potential(self, node: _Node) -> int:
        """What the node's cards promise (x100 like the score); see the module docstring."""
        counts = node.counts
        by_counts = self.by_counts.get(counts)
        if by_counts is None:  # focus up to what the layout holds, and all six continents
            by_counts = self.by_counts[counts] = min(self.focus_most, max(counts)) + all(counts)
        items = node.decades.bit_count() + by_counts + _longest_run(node.years) + node.secret
        room = self._room(node) if self.room_varies else HALL_SIZE
        owned = node.owned
        value = 100 * items + node.mid + CARD_REWARD * (owned if owned < room else room)
        value -= self.heuristic.depot_cost * ((owned - room if owned > room else 0) + node.misfits)
        if self.wanted:
            value += self.heuristic.wanted_bonus * (node.years & self.wanted).bit_count()
        if node.years.bit_count() >= 2:
            low = node.years & -node.years
            if self.gap:
                high = 1 << (node.years.bit_length() - 1)
                outside = (node.market_years & (low - 1)).bit_count() + (node.market_years >> high.bit_length()).bit_count()
                if outside < SCORED_LIMIT:
                    value += 100 * (SCORED_LIMIT - outside)
            if self.antiquity:
                second = (node.years & ~low) & -(node.years & ~low)
                older = (node.market_years & (second - 1)).bit_count()
                if older < SCORED_LIMIT:
                    value += 100 * (SCORED_LIMIT - older)
        return value

    def _room(self, node: _Node) -> int:
        """The hall spots the node's cards could fill: all 16, but with ONE DECADE its four
        spots only as many as the best decade has years among the cards, and with LINKS its
        third spot only if three years link up (at most 5 apart in turn)."""
        room = HALL_SIZE
        if self.one_decade:
            best = max(((node.years >> (10 * d)) & DECADE_YEARS).bit_count() for d in range(10))
            room -= Showcase.ONE_DECADE.size - min(Showcase.ONE_DECADE.size, best)
        if self.links:
            below = above = 0  # years with a year at most LINK_YEARS below / above them
            for k in range(1, LINK_YEARS + 1):
                below |= node.years << k
                above |= node.years >> k
            if not node.years & below & above:  # no three linked years: two cards at most, not side by side
                room -= Showcase.LINKS.size - min(Showcase.LINKS.size - 1, node.years.bit_count())
        return room


def _misfits(game: Game, state: State, cards: list[Card]) -> frozenset[int]:
    """The coloured cards (indices of ``cards``: the market's, then the stock's) that no empty
    spot of the hall takes as it stands. A beam blind to the hall builds lines of such cards,
    which their placement then sends to the depot or past the game's end: from 39 halls of
    12 deals, its lines placed 97 points below these (``benchmarks/README.md``). An empty
    hall takes every card; a white card is taken as fitting (its declaration is free)."""
    if all(placed is None for placed in state.board.hall):
        return frozenset()
    reach = len(state.market_cards) + start_of(game, state).turns  # no later card is drawn
    return frozenset(i for i, c in enumerate(cards[:reach]) if not c.is_white and not game.has_legal_spot(state, c))


def beam_candidates(game: Game, state: State, turns: int, heuristic: Heuristic = HEURISTIC) -> list[list[Take]]:
    """The most promising complete take sequences of at most ``turns`` takes from ``state``
    (its held card, if any, counts as taken), best first: a beam search over the market
    dynamics ranked by the potential. A sequence is complete once its cards could fill the
    hall (with ``complete_early``), or at the last turn. Of the ``candidates`` best, one of
    each ``outcome_key``: the others would be placed again for nothing. (Filling the list up
    with the next distinct sequences instead found better plans on some deals and later ones
    on others, and placed more: benchmarks/README.md, sixty-first session.)"""
    beam = _Beam(game, state, heuristic)
    width, count = heuristic.width, heuristic.candidates
    nodes = [beam.root]
    complete: list[tuple[int, _Node]] = []
    for turn in range(turns):
        children = {}
        for node in nodes:
            for child in beam.children(node, turn):
                children.setdefault((child.market, child.vehicle), child)  # same market: same cards taken
        if not children:
            break
        ranked = sorted(zip(map(beam.potential, children.values()), children.values()), key=itemgetter(0), reverse=True)
        nodes = [n for _, n in ranked[:width]]
        if (heuristic.complete_early and nodes[0].owned >= HALL_SIZE) or turn == turns - 1:
            complete += ranked[:count]
    complete.sort(key=lambda pair: -pair[0])
    out, seen = [], set()
    for _, node in complete[:count]:
        key = outcome_key(node.takes)
        if key not in seen:
            seen.add(key)
            out.append(list(node.takes))
    return out


def outcome_key(takes: Sequence[Take]) -> tuple[frozenset[Card], Card | None]:
    """What two take sequences share when their placements played to the end share every
    outcome: the cards taken, and the last one (the only card that may leave the game
    without a spot, END). The requirements hold among the filled spots of a showcase, so any
    part of a legal hall is legal, and a hall that the cards fill in one order they fill in
    every order; the market at the end holds the same cards too. The beam keeps a market
    and vehicle once, but the same cards taken in two orders leave the vehicle in two
    columns: of the 60 sequences of a wide dive, only 15-58 differed so (1275 of 1800 over
    the 30 benchmark deals). Only a placement that stops the game earlier differs: placing
    one sequence of each, the first wide dive found the same plans on all 30 deals, its
    placements in 36.6 s against 52.3 s (benchmarks/README.md, sixty-first session)."""
    return frozenset(t.card for t in takes), takes[-1].card if takes else None


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
