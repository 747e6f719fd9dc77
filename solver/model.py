"""CP-SAT model of a solo game: market dynamics (which card is taken each turn), which
showcase each card goes to (or depot, or END), and the solo score, in one model.

With ``takes`` given the take sequence is fixed and only placement is chosen (the
*placement* problem of a known card sequence); without it CP-SAT also chooses the takes.

Why showcases and not spots: every requirement is monotone (``solver/requirements.py``)
and years ascend left to right, so a showcase's legality depends only on *which* cards it
holds. The model states, per showcase, conditions on card sets that are exact for a full
showcase and necessary for a partial one; ``solver/arrange.py`` then finds the spots and
white-card declarations with the engine's own check. Whatever the model lets through that
the engine refuses (a rare partial showcase, or an END whose card would fit somewhere)
is cut away and the model solved again (``solver/solve.py``). Every constraint is thus a
consequence of the rules, and the model's bound is a true bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from solver.cards import Card, Continent
from solver.deal import SOLO_TURNS_MAX
from solver.engine import Game
from solver.moves import Take
from solver.requirements import ERA_STEP
from solver.rules import BASE_LAYOUT, DEPOT_SIZE, HALL_SIZE, MARKET_SIZE, Showcase, focus_most, showcase_of
from solver.state import Placed, State

MID_POSITION = BASE_LAYOUT.index(Showcase.MID)


@dataclass(frozen=True)
class Start:
    """Where a model starts: a solo position at a take or a place decision, and the stock
    order from there (the deal's, or a sampled one when the stock is hidden).

    ``pinned`` (a flat spot) puts the held white card on that spot with its declaration
    left to the solver: the value of one *place* option of a white card."""

    market: tuple[tuple[Card, ...], ...]
    vehicle: int
    stock: tuple[Card, ...]
    hall: tuple[Placed | None, ...]
    depot: int
    holding: Card | None = None
    pinned: int | None = None

    @property
    def turns(self) -> int:
        """Most turns still to play: each fills a spot or a depot slot, or ends the game."""
        free = sum(1 for p in self.hall if p is None) + DEPOT_SIZE - self.depot
        return max(0, free - (1 if self.holding is not None else 0))


def start_of(game: Game, state: State | None = None, stock: tuple[Card, ...] | None = None,
             pinned: int | None = None) -> Start:
    """The model's start for a solo ``state`` (default: the deal's first state); ``stock`` is
    the order of the cards still to be drawn (default: the deal's)."""
    state = state or game.initial_state()
    board = state.board
    stock = game.deal.stock[state.drawn:] if stock is None else stock
    return Start(state.market, board.vehicle, tuple(stock), board.hall, len(board.depot), state.holding, pinned)


@dataclass
class SoloModel:
    """Handles on the variables a caller reads back after solving."""

    model: cp_model.CpModel
    cards: list[Card]  # market cards, then the stock cards the game can draw, the held card, hall cards
    turns: int
    start: Start
    column_of: dict[int, int] = field(default_factory=dict)  # market card -> its column
    stock_index: dict[int, int] = field(default_factory=dict)  # stock card -> k: drawn by turn k's refill
    held: int | None = None  # the held card (placed before turn 0)
    fixed: dict[int, int] = field(default_factory=dict)  # card already in the hall -> its flat spot
    rule_card: dict[int, tuple] = field(default_factory=dict)  # card -> (continent, year) for requirements
    take: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (turn, card) -> taken then
    active: list = field(default_factory=list)  # turn -> the turn is played (1 when fixed)
    column: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (turn, column) -> vehicle there
    shelf: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (card, showcase position)
    depot: dict[int, cp_model.IntVar] = field(default_factory=dict)
    end: dict[int, cp_model.IntVar] = field(default_factory=dict)  # card removed from play by END
    full: dict[int, cp_model.IntVar] = field(default_factory=dict)  # showcase position -> it is full
    items: dict[str, object] = field(default_factory=dict)  # score item -> expression (x100)
    runs: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (first, last year) -> longest chain
    focus_on: list[cp_model.IntVar] = field(default_factory=list)  # continent -> it is the focus continent
    score: object = 0

    def copy(self) -> SoloModel:
        """The same model to add constraints to, this one left as it is: a clone of the
        CP-SAT model (about 1 ms, against 0.03-0.04 s to build one), read back through the
        same handles (the variables keep their indices)."""
        return replace(self, model=self.model.clone())


def candidate_cards(start: Start) -> list[Card]:
    """Every card the rest of the game can put in the hall: hall, held, market, and the stock
    cards drawn in time to be taken."""
    market = [c for column in start.market for c in column]
    held = [start.holding] if start.holding is not None else []
    return [p.card for p in start.hall if p is not None] + held + market + list(start.stock[: max(0, start.turns - 1)])


def turns_to_end(start: Start, empty: int, depot: int) -> int:
    """How many turns a game from ``start`` plays when it ends with ``empty`` hall spots
    empty and ``depot`` cards in the depot: one for each card still to go to the hall or
    the depot (the held card goes there without a turn), and one more when a spot stays
    empty, as such a game ends by a card removed from play (END). At most that many under
    the rule option ``depot_full_ends_game``, whose third depot card may end it instead.
    A model built with this ``turn_limit`` holds every such game, and with those two values
    of the score only such games: so many turns leave a full hall, or an END, as the last."""
    filled = sum(1 for p in start.hall if p is not None)
    to_place = (HALL_SIZE - empty - filled) + (depot - start.depot) - (1 if start.holding is not None else 0)
    return to_place + (1 if empty else 0)


def play_every_turn(h: SoloModel) -> None:
    """Every turn of the model is played: for a question about games known to play all
    ``h.turns`` of them (``turns_to_end``), stated so that CP-SAT need not find it out
    (the cells of ``solver/cells.py``: 0.8 of the time, benchmarks/README.md)."""
    for played in h.active:
        if not isinstance(played, int):
            h.model.add(played == 1)


def build_solo_model(game: Game, takes: list[Card] | None = None, turn_limit: int | None = None,
                     start: Start | None = None, stop_early: bool = False, walk: bool = True) -> SoloModel:
    """Build the model from ``start`` (default: the deal's first state). ``takes`` fixes the
    take sequence (with ``stop_early``, the game may end after any prefix of it);
    ``turn_limit`` stops the game after that many turns (scored as it stands: used by the
    exhaustive cross-check in the tests, and by the cells of ``solver/cells.py`` whose
    profile fixes how many turns a game plays, ``turns_to_end``). ``walk=False`` builds a
    *relaxation* without the vehicle's walk (``_taken_cards``): its plans include every
    game's, so where it has none, no game has one (it refutes many cells of
    ``solver/cells.py`` in a quarter of the time); its take variables are empty, so no plan
    is read back from it."""
    if takes is not None and not walk:
        raise ValueError("a fixed take sequence needs the vehicle's walk")
    m = cp_model.CpModel()
    start = start or start_of(game)
    turns = min(start.turns, turn_limit if turn_limit is not None else SOLO_TURNS_MAX)
    if takes is not None:
        turns = len(takes)
    h = SoloModel(m, [], turns, start)
    _cards(h, turns)
    fixed = None
    if takes is not None:
        index = {c: i for i, c in enumerate(h.cards) if i in h.column_of or i in h.stock_index}
        fixed = [index[c] for c in takes]
    if walk:
        taken, in_market, last = _market(m, h, fixed, fixed is None or stop_early)
    else:
        taken, in_market, last = _taken_cards(m, h)
    in_hall, hall_count, depot_count = _placement(m, h, game, taken)
    _game_end(m, h, game, hall_count, depot_count, last, turn_limit, fixed is not None)
    _score(m, h, game, in_hall, in_market, hall_count, depot_count)
    m.maximize(h.score)
    return h


def _cards(h: SoloModel, turns: int) -> None:
    """The model's cards and where each comes from; requirement values (a placed white card
    counts as declared; a white card still to place is a wildcard, the 1945 card keeps 1945)."""
    start = h.start
    for j, column in enumerate(start.market):
        for c in column:
            h.column_of[len(h.cards)] = j
            h.cards.append(c)
    for k, c in enumerate(start.stock[:turns]):
        h.stock_index[len(h.cards)] = k
        h.cards.append(c)
    if start.holding is not None:
        h.held = len(h.cards)
        h.cards.append(start.holding)
    for flat, placed in enumerate(start.hall):
        if placed is not None:
            h.fixed[len(h.cards)] = flat
            h.cards.append(placed.card)
    for i, c in enumerate(h.cards):
        if i in h.fixed:
            placed = start.hall[h.fixed[i]]
            h.rule_card[i] = (placed.continent, placed.year)
        else:
            h.rule_card[i] = (c.continent, c.year)


def fix_prefix(h: SoloModel, prefix: list[Take]) -> None:
    """Fix the first takes (and where each white card sends the vehicle): a search-tree node."""
    index = {c: i for i, c in enumerate(h.cards)}
    for t, take in enumerate(prefix):
        h.model.add(h.take[t, index[take.card]] == 1)
        if take.to is not None:
            h.model.add(h.column[t + 1, int(take.to)] == 1)


# ------------------------------------------------------------------ market dynamics
def _market(m: cp_model.CpModel, h: SoloModel, fixed: list[int] | None, free_end: bool):
    """Take variables, vehicle columns, and which cards are still available at the end.
    ``fixed`` gives the card of every turn; ``free_end`` lets the game stop after any turn."""
    cards, turns = h.cards, h.turns
    takeable = _takeable(h)
    _turns_played(m, h, free_end)
    for t in range(turns + 1):
        for j in range(6):
            h.column[t, j] = m.new_bool_var(f"vehicle_{t}_{Continent(j).name}")
        m.add_exactly_one(h.column[t, j] for j in range(6))
    m.add(h.column[0, h.start.vehicle] == 1)  # where the vehicle stands now
    for t in range(turns):
        options = []
        arrivals = {j: [] for j in range(6)}  # what sends the vehicle to column j for turn t + 1
        from_market = {j: [] for j in range(6)}
        for i in takeable:
            if i in h.stock_index and h.stock_index[i] >= t:
                continue  # stock card k is drawn by the refill of turn k: takeable from turn k+1
            if fixed is not None and fixed[t] != i:
                continue
            x = m.new_bool_var(f"take_{t}_{cards[i].code}")
            h.take[t, i] = x
            options.append(x)
            if i in h.column_of:
                from_market[h.column_of[i]].append(x)
            else:
                k = h.stock_index[i]  # stock card k went to the column taken from at turn k
                for j in range(6):
                    m.add_implication(h.column[k, j], h.column[t, j]).only_enforce_if(x)
            if cards[i].continent is not None:
                arrivals[int(cards[i].continent)].append(x)  # the vehicle moves to its continent
            else:
                goes = [m.new_bool_var(f"take_{t}_{cards[i].code}_to_{Continent(j).name}") for j in range(6)]
                m.add(sum(goes) == x)  # a white card sends the vehicle to a column of one's choice
                for j in range(6):
                    arrivals[j].append(goes[j])
        m.add(sum(options) == h.active[t])  # one take per played turn
        for j in range(6):
            if from_market[j]:
                m.add(sum(from_market[j]) <= h.column[t, j])  # take from the vehicle's column
        idle = [m.new_bool_var(f"idle_{t}_{j}") for j in range(6)] if free_end else []
        if idle:
            m.add(sum(idle) + h.active[t] == 1)  # after the game the vehicle stands anywhere
        for j in range(6):
            m.add(h.column[t + 1, j] == sum(arrivals[j]) + (idle[j] if idle else 0))  # where the vehicle goes
    taken = _taken_before(h)
    for i in takeable:
        xs = [h.take[t, i] for t in range(turns) if (t, i) in h.take]
        taken[i] = sum(xs) if xs else 0
        if len(xs) > 1:
            m.add(sum(xs) <= 1)  # a card is taken at most once
    if fixed is not None:
        for (t, _), x in h.take.items():
            m.add(x == h.active[t])
    return taken, _available_at_end(h, takeable, taken), _last_turns(m, h, free_end)


def tie_stock_takes_to_columns(h: SoloModel, years: range) -> None:
    """For the stock cards of ``years``: on each turn that may take one, an indicator per
    column (the card taken, and lying in that column: where the vehicle stood when it was
    drawn), joined to the column's market cards in one constraint per turn and column (at
    most one take from the column, and only with the vehicle there). ``_market`` states the
    same through implications; this tighter linear form lets CP-SAT refute the cells that
    need these cards (a run of years: every year of it in the hall) faster. Seed 10's two
    hardest run cells, whose run 1970-1974 has one stock card: 1.0-3.2 s and 3.0-8.7 s against
    5.2-14.9 s and 7.6-15.0 s; its proof from its optimum 56-62 s against 117-119 s. Stated for
    every stock card at once it doubles the model and slows every other cell
    (benchmarks/README.md, fifty-seventh session). Nothing without the walk (``walk=False``)."""
    wanted = {i for i in h.stock_index if h.cards[i].year in years}
    if not h.take or not wanted:
        return
    m = h.model
    market: dict[tuple[int, int], list] = {}  # (turn, column) -> the takes of that column's market cards
    landed_in: dict[tuple[int, int], list] = {}  # (turn, column) -> a wanted card taken there
    for (t, i), x in h.take.items():
        if i in h.column_of:
            market.setdefault((t, h.column_of[i]), []).append(x)
        elif i in wanted:
            landed = [m.new_bool_var(f"take_{t}_{h.cards[i].code}_in_{Continent(j).name}") for j in range(6)]
            m.add(sum(landed) == x)
            for j in range(6):
                m.add_implication(landed[j], h.column[h.stock_index[i], j])
                landed_in.setdefault((t, j), []).append(landed[j])
    for (t, j), takes in landed_in.items():
        m.add(sum(market.get((t, j), [])) + sum(takes) <= h.column[t, j])


def _taken_cards(m: cp_model.CpModel, h: SoloModel):
    """The market relaxed (``build_solo_model(walk=False)``): *which* cards are taken, one a
    played turn, a stock card only on a turn after the one that draws it; not the vehicle's
    walk (which column each take is from), nor which card is the last (``h.take`` stays
    empty). The cards left in the market at the end follow from the cards taken alone."""
    _turns_played(m, h, True)
    takeable = _takeable(h)
    taken = _taken_before(h)
    late = {}  # stock card k -> taken
    for i in takeable:
        k = h.stock_index.get(i)
        if k is not None and k >= h.turns - 1:
            taken[i] = 0  # drawn by the last turn's refill: never taken
            continue
        x = m.new_bool_var(f"taken_{h.cards[i].code}")
        taken[i] = x
        if k is not None:
            m.add_implication(x, h.active[k + 1])
            late[k] = x
    m.add(sum(taken[i] for i in takeable) == sum(h.active))
    for first in range(h.turns):
        drawn_then = [x for k, x in late.items() if k >= first]
        if drawn_then:  # the stock cards drawn on turn ``first`` or later: each taken on a later turn
            m.add(sum(drawn_then) <= sum(h.active[first + 1:]))
    return taken, _available_at_end(h, takeable, taken), _last_turns(m, h, True)


def _takeable(h: SoloModel) -> list[int]:
    """The cards the rest of the game may take: the market's and the stock's."""
    return sorted(set(h.column_of) | set(h.stock_index))


def _turns_played(m: cp_model.CpModel, h: SoloModel, free_end: bool) -> None:
    """``h.active``: whether each turn is played (all of them unless ``free_end``), in order."""
    h.active = [m.new_bool_var(f"active_{t}") if free_end else 1 for t in range(h.turns)]
    for t in range(1, h.turns):
        if free_end:
            m.add_implication(h.active[t], h.active[t - 1])  # turns are played in order


def _taken_before(h: SoloModel) -> dict:
    """The cards taken before the model's first turn: the held card and the hall's."""
    taken = {i: 1 for i in h.fixed}
    if h.held is not None:
        taken[h.held] = 1
    return taken


def _available_at_end(h: SoloModel, takeable: list[int], taken: dict) -> dict:
    """Each card's being in the market at the end: the market now and the stock cards drawn
    from now on, not taken."""
    drawn = {i: 1 if i in h.column_of else h.active[h.stock_index[i]] for i in takeable}
    return {i: drawn[i] - taken[i] for i in takeable}


def _last_turns(m: cp_model.CpModel, h: SoloModel, free_end: bool) -> list:
    """Whether each turn is the game's last."""
    last = []
    for t in range(h.turns):
        if free_end:
            b = m.new_bool_var(f"last_{t}")
            m.add(b == h.active[t] - (h.active[t + 1] if t + 1 < h.turns else 0))
        else:
            b = m.new_constant(1 if t == h.turns - 1 else 0)
        last.append(b)
    return last


# ------------------------------------------------------------------------ placement
def _placement(m: cp_model.CpModel, h: SoloModel, game: Game, taken: dict):
    """Each taken card goes to a showcase, the depot, or (last card only) END; cards already
    in the hall stay on their showcase."""
    cards, layout = h.cards, game.layout
    one = m.new_bool_var("already_placed")
    m.add(one == 1)
    for i, flat in h.fixed.items():
        h.shelf[i, showcase_of(flat)[0]] = one
    pinned = showcase_of(h.start.pinned)[0] if h.start.pinned is not None else None
    for i, c in enumerate(cards):
        if i in h.fixed or (isinstance(taken[i], int) and taken[i] == 0):
            continue
        for p, kind in enumerate(layout):
            if c.is_white and kind.is_variation:
                continue  # white cards may not go in variation showcases
            if kind is Showcase.UNIQUE_DECADES and c.decade not in game.rules.allowed_unique_decades(1):
                continue  # UNIQUE DECADES: only the allowed decades
            if i == h.held and pinned is not None and p != pinned:
                continue
            h.shelf[i, p] = m.new_bool_var(f"{c.code}_in_{kind.name}")
        h.depot[i] = m.new_bool_var(f"{c.code}_in_depot")
        h.end[i] = m.new_bool_var(f"{c.code}_removed")
        if i == h.held and pinned is not None:
            m.add(h.depot[i] + h.end[i] == 0)
        m.add(sum(h.shelf[i, p] for p in range(len(layout)) if (i, p) in h.shelf) + h.depot[i] + h.end[i] == taken[i])
    in_hall = {i: sum(v for (j, _), v in h.shelf.items() if j == i) for i in range(len(cards))
               if not (isinstance(taken[i], int) and taken[i] == 0)}
    for p, kind in enumerate(layout):
        _showcase(m, h, game, p, kind)
    depot_count = h.start.depot + sum(h.depot.values())
    m.add(depot_count <= DEPOT_SIZE)  # the depot holds 3 cards at most
    hall_count = sum(in_hall.values())
    return in_hall, hall_count, depot_count


def _showcase(m: cp_model.CpModel, h: SoloModel, game: Game, p: int, kind: Showcase) -> None:
    """Requirements of one showcase on the set of cards it holds (RULES.md 4 and 7)."""
    rule = h.rule_card
    here = {i: v for (i, q), v in h.shelf.items() if q == p}
    count = sum(here.values())
    size = kind.size
    m.add(count <= size)
    full = h.model.new_bool_var(f"{kind.name}_full")
    m.add(count == size).only_enforce_if(full)
    m.add(count <= size - 1).only_enforce_if(~full)
    h.full[p] = full
    _between_placed(m, h, p, here)
    if kind is Showcase.CONTINENT:
        chosen = [m.new_bool_var(f"one_continent_{k.name}") for k in Continent]
        m.add_exactly_one(chosen)
        for i, v in here.items():
            if rule[i][0] is not None:
                m.add_implication(v, chosen[int(rule[i][0])])  # ONE CONTINENT
    else:
        for k in Continent:
            same = [v for i, v in here.items() if rule[i][0] == k]
            if len(same) > 1:
                m.add_at_most_one(same)  # different continents
    if kind is Showcase.ONE_DECADE:  # one chosen decade, like ONE CONTINENT: linear in the cards, not pairwise
        decades = {rule[i][1] // 10 for i in here if rule[i][1] is not None}
        chosen = {d: m.new_bool_var(f"one_decade_{d}") for d in sorted(decades)}
        m.add_at_most_one(chosen.values())
        for i, v in here.items():
            if rule[i][1] is not None:
                m.add_implication(v, chosen[rule[i][1] // 10])  # ONE DECADE
    dated = sorted((i for i in here if rule[i][1] is not None), key=lambda i: rule[i][1])
    einstein = [here[i] for i in here if rule[i][1] is None]
    for a_index, i in enumerate(dated):
        for j in dated[a_index + 1 :]:
            gap = rule[j][1] - rule[i][1]
            pair = [~here[i], ~here[j]]
            between = [here[c] for c in dated if rule[i][1] < rule[c][1] < rule[j][1]]
            if gap == 0:
                m.add_bool_or(pair)  # ascending years: never two cards of one year
            elif kind is Showcase.ERA:
                if gap > 10 * (size - 1):
                    m.add_bool_or(pair)  # ONE ERA: at most 30 years across 4 spots
                elif gap > 10:
                    bridge = between + (einstein if gap <= 20 else [])
                    m.add_bool_or(pair + [~full] + bridge)  # ONE ERA, full: neighbours at most 10 apart
            elif kind is Showcase.SPREAD_THE_YEARS and gap < 20:
                m.add_bool_or(pair)  # SPREAD THE YEARS: at least 20 years per spot
            elif kind is Showcase.LINKS and gap > 5:
                if gap > 10:
                    m.add_bool_or(pair + [~full])  # LINKS, full: 3 cards within 10 years
                else:
                    m.add_bool_or(pair + [~full] + between)  # LINKS, full: neighbours at most 5 apart
            elif kind is Showcase.UNIQUE_DECADES and rule[i][1] // 10 == rule[j][1] // 10:
                m.add_bool_or(pair)  # UNIQUE DECADES: distinct decades
    if kind is Showcase.ERA:
        _era_spacing(m, h, p, here, count, dated, einstein)


def _era_spacing(m: cp_model.CpModel, h: SoloModel, p: int, here: dict, count, dated: list[int], einstein: list) -> None:
    """ONE ERA with three cards or with cards on spots already: how few empty spots are
    left to stretch the gaps between neighbours (10 years per spot of distance).

    Without these the model let through sets that no arrangement takes (1957, 1968, 1979:
    two gaps over 10 years need two empty spots, three cards leave one), which the engine
    then cut away one set at a time: a third of the placements of early hint samples
    needed such cuts, and they took two thirds of the time (measured)."""
    rule = h.rule_card
    crowded = m.new_bool_var("one_era_crowded")  # at least 3 cards: at most one empty spot
    m.add(count <= 2).only_enforce_if(~crowded)
    years = {i: rule[i][1] for i in dated}
    for a, i in enumerate(dated):
        for b in range(a + 1, len(dated)):
            j = dated[b]
            gap = years[j] - years[i]
            if gap <= 10:
                continue
            between = [here[c] for c in dated[a + 1 : b] if years[i] < years[c] < years[j]]
            if gap > 20:  # neighbours three spots apart: only two cards in the showcase
                m.add_bool_or([~here[i], ~here[j], ~crowded] + between + einstein)
                continue
            for k in dated[b + 1 :]:  # two neighbour gaps over 10 years need two empty spots
                beyond = years[k] - years[j]
                if beyond > 10 and years[k] - years[i] <= 30:
                    further = [here[c] for c in dated if years[j] < years[c] < years[k]]
                    m.add_bool_or([~here[i], ~here[j], ~here[k]] + between + further + einstein)
    spots = [f for f in range(HALL_SIZE) if showcase_of(f)[0] == p]
    for f in spots:  # a card on a spot already: how far its new neighbours can be
        placed = h.start.hall[f]
        if placed is None:
            continue
        right, left = ERA_STEP * (spots[-1] - f), ERA_STEP * (f - spots[0])
        for i in dated:
            if i not in h.fixed and (years[i] - placed.year > right or placed.year - years[i] > left):
                m.add_bool_or([~here[i]])


def _between_placed(m: cp_model.CpModel, h: SoloModel, p: int, here: dict) -> None:
    """Ascending years around cards already on spots: a new card whose year lies between two
    placed neighbours must fit on the empty spots between them."""
    spots = [f for f in range(HALL_SIZE) if showcase_of(f)[0] == p]
    occupied = {f: h.start.hall[f].year for f in spots if h.start.hall[f] is not None}
    if h.start.pinned in spots:
        occupied[h.start.pinned] = h.rule_card[h.held][1]  # None for Einstein: its year is still free
    if not occupied:
        return
    new = {i: v for i, v in here.items() if i not in h.fixed and i != h.held}
    walls = [(spots[0] - 1, -1)] + sorted((f, y) for f, y in occupied.items() if y is not None) + [(spots[-1] + 1, 10_000)]
    for (left, low), (right, high) in zip(walls, walls[1:]):
        room = sum(1 for f in range(left + 1, right) if f not in occupied)
        inside = [v for i, v in new.items() if h.rule_card[i][1] is not None and low < h.rule_card[i][1] < high]
        if len(inside) > room:
            m.add(sum(inside) <= room)


def _extreme(m: cp_model.CpModel, here: dict, cards: list[Card], full, side: str, name: str) -> dict:
    """One literal per card: it is the oldest (``side='left'``) or youngest card of a full showcase."""
    pick = {i: m.new_bool_var(f"{name}_{side}_{cards[i].code}") for i in here if cards[i].year is not None}
    for i, v in pick.items():
        m.add_implication(v, here[i])
        for j in here:
            if j != i and cards[j].year is not None and (cards[j].year < cards[i].year if side == "left" else cards[j].year > cards[i].year):
                m.add_bool_or([~v, ~here[j]])  # nothing older (younger) beside it
    m.add(sum(pick.values()) == full)
    return pick


# ---------------------------------------------------------------------- end of game
def _game_end(m, h: SoloModel, game: Game, hall_count, depot_count, last, turn_limit, fixed) -> None:
    """The game ends by a full hall, END, or (rule option) a full depot, at the last turn."""
    rules = game.rules
    hall_full = m.new_bool_var("hall_full")
    m.add(hall_count == HALL_SIZE).only_enforce_if(hall_full)
    m.add(hall_count <= HALL_SIZE - 1).only_enforce_if(~hall_full)
    depot_full = m.new_bool_var("depot_full")
    m.add(depot_count == DEPOT_SIZE).only_enforce_if(depot_full)
    m.add(depot_count <= DEPOT_SIZE - 1).only_enforce_if(~depot_full)
    end_used = m.new_bool_var("end_used")
    m.add(sum(h.end.values()) == end_used)
    placings = [(x, i, last[t]) for (t, i), x in h.take.items()]
    if h.held is not None:  # the held card is placed first; it is the last card if no turn follows
        held_last = m.new_bool_var("held_card_is_last")
        m.add(held_last == (1 - h.active[0] if h.turns else 1))
        placings.append((None, h.held, held_last))
    for x, i, is_last in placings:
        when = [x] if x is not None else []  # the card is placed at that turn (the held card: surely)
        m.add_implication(h.end[i], is_last).only_enforce_if(when)  # END only on the last turn
        # a full hall ends the game: the 16th card is the last card
        m.add_bool_or([~v for v in when] + [~is_last, ~hall_full] + [v for (j, _), v in h.shelf.items() if j == i])
        if rules.depot_full_ends_game:
            m.add_implication(depot_full, h.depot[i]).only_enforce_if(when + [is_last])  # third depot card is last
    for p, kind in enumerate(game.layout):
        in_use = [v for (_, q), v in h.shelf.items() if q == p]
        if not kind.is_variation:
            # an empty base showcase takes any card, so END needs every one of them in use
            m.add_bool_or([~end_used] + in_use)
            continue
        # an empty variation showcase takes any coloured card (UNIQUE DECADES: of its decades)
        for i, end in h.end.items():
            if (i, p) in h.shelf:
                m.add_bool_or([~end] + in_use)
    causes = [hall_full, end_used] + ([depot_full] if rules.depot_full_ends_game else [])
    if turn_limit is None:
        m.add_bool_or(causes)
    elif not fixed:
        m.add_bool_or(causes + [h.active[h.turns - 1]])  # or the turn limit is reached


# ---------------------------------------------------------------------------- score
def _score(m, h: SoloModel, game: Game, in_hall, in_market, hall_count, depot_count) -> None:
    """The solo score x100, item by item (mirrors solver/scoring.py; tests compare the two)."""
    cards, rules, layout = h.cards, game.rules, game.layout
    most = focus_most(layout)
    counts = []
    for k in Continent:
        members = [in_hall[i] for i in in_hall if cards[i].continent == k]
        v = m.new_int_var(0, min(most, len(members)), f"count_{k.name}")
        m.add(v == sum(members))
        counts.append(v)
    # continent focus = the largest count: choose the focus continent (exact when maximised)
    focus = m.new_int_var(0, most, "focus")
    chosen = h.focus_on = [m.new_bool_var(f"focus_on_{k.name}") for k in Continent]
    m.add_exactly_one(chosen)
    for k, v in enumerate(counts):
        m.add(focus <= v + most * (1 - chosen[k]))
    six = m.new_bool_var("all_six")
    for v in counts:
        m.add(six <= v)  # all 6 continents
    decades = []
    for d in range(10):
        members = [in_hall[i] for i in in_hall if cards[i].decade == d]
        if members:
            b = m.new_bool_var(f"decade_{d}")
            m.add(b <= sum(members))  # number of decades
            decades.append(b)
    by_year = {cards[i].year: i for i in in_hall if cards[i].year is not None}
    chain_terms = []
    for start in sorted(by_year):
        stop = start
        while stop + 1 in by_year:
            stop += 1
            z = m.new_bool_var(f"chain_{start}_{stop}")
            for y in range(start, stop + 1):
                m.add(z <= in_hall[by_year[y]])  # chain of years: every year of the run in the hall
            chain_terms.append((z, stop - start))
            h.runs[start, stop] = z
    if chain_terms:
        m.add(sum(z for z, _ in chain_terms) <= 1)
    mid = {i: v for (i, p), v in h.shelf.items() if p == MID_POSITION}
    items = {
        "all_continents": 100 * six,
        "continent_focus": 100 * focus,
        "decades": 100 * sum(decades),
        "chain": 100 + 100 * sum(z * extra for z, extra in chain_terms),
        "years_gap": 0,
        "mid_century": sum(v * (100 - 2 * abs(cards[i].year - 1950)) for i, v in mid.items() if not cards[i].is_einstein),
        "short_era": 0,
        "antiquity": 0,
        "secret_decade": 0 if rules.secret_decade is None else
        100 * sum(in_hall[i] for i in in_hall if cards[i].decade == rules.secret_decade),
        "empty_spots": -100 * (HALL_SIZE - hall_count),
        "depot": -100 * depot_count,
    }
    available = {i: a for i, a in in_market.items() if cards[i].year is not None and not (isinstance(a, int) and a == 0)}

    def count_available(name: str, relation: dict[int, object], extra: int = 0) -> object:
        """How many available cards satisfy ``relation`` (a 0/1 expression per card; ``extra``
        more terms must all hold). Lower-bounded per card: exact where the score is maximised."""
        terms = []
        for i, expr in relation.items():
            if i not in available:
                continue
            o = m.new_bool_var(f"{name}_{cards[i].code}")
            m.add(o >= available[i] + expr - 1 - extra)
            terms.append(o)
        return sum(terms)

    shelf_at = {}
    for (i, p), v in h.shelf.items():
        shelf_at.setdefault(p, {})[i] = v
    full = h.full
    gap_position = BASE_LAYOUT.index(Showcase.GAP)
    if Showcase.GAP in layout:
        here = shelf_at.get(gap_position, {})
        left = _extreme(m, here, cards, full[gap_position], "left", "gap")
        right = _extreme(m, here, cards, full[gap_position], "right", "gap")
        outside_low = {k: sum(v for i, v in left.items() if cards[i].year > cards[k].year) for k in available}
        outside_high = {k: sum(v for i, v in right.items() if cards[i].year < cards[k].year) for k in available}
        n_out = count_available("gap_low", outside_low) + count_available("gap_high", outside_high)
        gap = m.new_int_var(0, 500, "years_gap")
        m.add(gap <= _floor_zero(m, 500 - 100 * n_out))  # YEARS GAP: max(0, 5 - cards outside)
        m.add(gap <= 500 * full[gap_position])
        for i, v in here.items():
            if cards[i].is_einstein:
                m.add(gap == 0).only_enforce_if(v)  # Einstein in YEARS GAP: no score
        items["years_gap"] = gap
    era_position = BASE_LAYOUT.index(Showcase.ERA)
    if Showcase.SHORT_ERA in layout:
        here = shelf_at.get(era_position, {})
        left = _extreme(m, here, cards, full[era_position], "left", "short")
        right = _extreme(m, here, cards, full[era_position], "right", "short")
        inside = {k: sum(v for i, v in left.items() if cards[i].year < cards[k].year)
                  + sum(v for i, v in right.items() if cards[i].year > cards[k].year) for k in available}
        n_in = count_available("short_inside", inside, extra=1)
        short = m.new_int_var(0, 500, "short_era")
        m.add(short <= _floor_zero(m, 500 - 100 * n_in))  # SHORT ERA: max(0, 5 - cards strictly inside)
        m.add(short <= 500 * full[era_position])
        items["short_era"] = short
    if Showcase.ANTIQUITY in layout:
        here = shelf_at.get(gap_position, {})
        right = _extreme(m, here, cards, full[gap_position], "right", "antiquity")
        older = {k: sum(v for i, v in right.items() if cards[i].year > cards[k].year) for k in available}
        n_old = count_available("antiquity_older", older)
        antiquity = m.new_int_var(0, 500, "antiquity")
        m.add(antiquity <= _floor_zero(m, 500 - 100 * n_old))  # ANTIQUITY: max(0, 5 - older cards)
        m.add(antiquity <= 500 * full[gap_position])
        items["antiquity"] = antiquity
    h.items = items
    h.score = sum(items.values())


def _floor_zero(m: cp_model.CpModel, expr) -> cp_model.IntVar:
    """max(0, expr) as a variable."""
    raw = m.new_int_var(-100 * 2 * (MARKET_SIZE + SOLO_TURNS_MAX), 500, "")
    m.add(raw == expr)
    out = m.new_int_var(0, 500, "")
    m.add_max_equality(out, [raw, 0])
    return out
