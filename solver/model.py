"""CP-SAT model of a solo game: market dynamics (which card is taken each turn), placement
(which spot, depot, or END) and the solo score, in one model.

With ``takes`` given, the take sequence is fixed and only placement is chosen (the
*placement* problem of a known card sequence). Without it, CP-SAT also chooses the takes
(the whole game). Variables live in tuple-keyed dicts; each constraint says which rule it
encodes.

Why it is exact: every requirement is monotone (``solver/requirements.py``), so a final
hall that is legal is reachable in any placement order; legality therefore needs only
pairwise constraints between the filled spots of the final hall. The one rule not encoded
is END's condition ("the card fits no hall spot"): the model lets the last card be removed
freely, a *relaxation*. Its bound stays valid; a plan whose END the engine refuses is
re-solved with END forbidden (see ``solver/solve.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.cards import Card, Continent
from solver.engine import Game
from solver.rules import BASE_LAYOUT, DEPOT_SIZE, HALL_SIZE, MARKET_SIZE, Showcase, showcase_start
from solver.deal import SOLO_TURNS_MAX

YEARS = (1900, 1999)


@dataclass
class SoloModel:
    """Handles on the variables a caller reads back after solving."""

    model: cp_model.CpModel
    cards: list[Card]  # candidate cards: the 18 market cards, then stock cards 0..18
    turns: int
    take: dict[tuple[int, int], object] = field(default_factory=dict)  # (turn, card) -> bool (or 1)
    active: list = field(default_factory=list)  # turn -> bool: the turn is played
    column: dict[tuple[int, int], object] = field(default_factory=dict)  # (turn, column) -> vehicle there
    spot: dict[tuple[int, int], object] = field(default_factory=dict)  # (card, spot) -> bool
    depot: dict[int, object] = field(default_factory=dict)
    end: dict[int, object] = field(default_factory=dict)  # card removed by END
    year: dict[int, cp_model.IntVar] = field(default_factory=dict)  # spot -> year it counts as
    continent: dict[int, cp_model.IntVar] = field(default_factory=dict)  # spot -> continent it counts as
    items: dict[str, object] = field(default_factory=dict)  # score item -> linear expression (x100)
    score: object = None


def candidate_cards(game: Game) -> list[Card]:
    """The only cards a solo game can ever take: 18 market + the first 19 stock cards."""
    return list(game.deal.cards[: MARKET_SIZE + SOLO_TURNS_MAX])


def build_solo_model(game: Game, takes: list[Card] | None = None, allow_end: bool = True,
                     turn_limit: int | None = None) -> SoloModel:
    """Build the model; ``takes`` fixes the take sequence; ``turn_limit`` cuts the game short
    (the score is then that of the hall after at most that many turns: used by tests)."""
    m = cp_model.CpModel()
    cards = candidate_cards(game)
    n = len(cards)
    turns = min(SOLO_TURNS_MAX, turn_limit or SOLO_TURNS_MAX, len(cards) - MARKET_SIZE)
    h = SoloModel(m, cards, turns)
    index = {c: i for i, c in enumerate(cards)}
    layout = game.layout
    rules = game.rules

    # ---------------------------------------------------------- market dynamics
    fixed = None
    if takes is not None:
        fixed = [index[c] for c in takes]
        turns = h.turns = len(fixed)
    h.active = [m.new_bool_var(f"active_{t}") if fixed is None else 1 for t in range(turns)]
    for t in range(1, turns):
        if fixed is None:
            m.add_implication(h.active[t], h.active[t - 1])  # turns are played in order
    for t in range(turns + 1):
        for j in range(6):
            h.column[t, j] = m.new_bool_var(f"vehicle_{t}_{Continent(j).name}")
        m.add_exactly_one(h.column[t, j] for j in range(6))
    m.add(h.column[0, int(Continent.OC)] == 1)  # solo: the vehicle starts on OC

    def market_column(i: int) -> int:
        return i // 3

    for t in range(turns):
        options = []
        for i in range(n):
            if i >= MARKET_SIZE and i - MARKET_SIZE >= t:
                continue  # stock card k is drawn by the refill of turn k, takeable from turn k+1
            if fixed is not None and fixed[t] != i:
                continue
            x = m.new_bool_var(f"take_{t}_{cards[i].code}")
            h.take[t, i] = x
            options.append(x)
            if i < MARKET_SIZE:
                m.add_implication(x, h.column[t, market_column(i)])  # take from the vehicle's column
            else:
                k = i - MARKET_SIZE  # refilled into the column taken from at turn k
                for j in range(6):
                    m.add_implication(h.column[k, j], h.column[t, j]).only_enforce_if(x)
            if cards[i].continent is not None:
                m.add_implication(x, h.column[t + 1, int(cards[i].continent)])  # move to its continent
            # white cards: the vehicle goes to any column (column[t+1] is free)
        m.add(sum(options) == h.active[t])  # one take per played turn
    taken = {}
    for i in range(n):
        xs = [h.take[t, i] for t in range(turns) if (t, i) in h.take]
        taken[i] = sum(xs) if xs else 0
        if xs:
            m.add(sum(xs) <= 1)  # a card is taken at most once
    if fixed is not None:
        for x in h.take.values():
            m.add(x == 1)

    # Available cards at the end: initial market and drawn stock cards, not taken.
    drawn = {i: (1 if i < MARKET_SIZE else (h.active[i - MARKET_SIZE] if i - MARKET_SIZE < turns else 0)) for i in range(n)}
    in_market = {i: drawn[i] - taken[i] for i in range(n)}

    # ----------------------------------------------------------------- placement
    spots = range(HALL_SIZE)
    kinds = [layout[p] for p in range(len(BASE_LAYOUT)) for _ in range(BASE_LAYOUT[p].size)]
    for i in range(n):
        c = cards[i]
        if isinstance(taken[i], int) and taken[i] == 0:
            continue
        for s in spots:
            if c.is_white and kinds[s].is_variation:
                continue  # white cards may not go in variation showcases
            h.spot[i, s] = m.new_bool_var(f"spot_{c.code}_{s}")
        h.depot[i] = m.new_bool_var(f"depot_{c.code}")
        h.end[i] = m.new_bool_var(f"end_{c.code}") if allow_end else 0
        m.add(sum(h.spot[i, s] for s in spots if (i, s) in h.spot) + h.depot[i] + h.end[i] == taken[i])
    in_hall = {i: sum(h.spot[i, s] for s in spots if (i, s) in h.spot) for i in h.depot}
    filled = {}
    for s in spots:
        filled[s] = sum(h.spot[i, s] for i in h.depot if (i, s) in h.spot)
        m.add(filled[s] <= 1)  # one card per spot
        h.year[s] = m.new_int_var(*YEARS, f"year_{s}")
        h.continent[s] = m.new_int_var(0, 5, f"continent_{s}")
        for i in h.depot:
            if (i, s) not in h.spot:
                continue
            c, x = cards[i], h.spot[i, s]
            if c.year is not None:
                m.add(h.year[s] == c.year).only_enforce_if(x)
            if c.continent is not None:
                m.add(h.continent[s] == int(c.continent)).only_enforce_if(x)
    depot_count = sum(h.depot.values())
    m.add(depot_count <= DEPOT_SIZE)
    hall_count = sum(filled.values())

    filled_bool = {}
    for s in spots:
        b = m.new_bool_var(f"filled_{s}")
        m.add(filled[s] == b)
        filled_bool[s] = b
    _requirements(m, h, filled_bool, kinds, rules)
    _pair_conflicts(m, h, rules)

    # ---------------------------------------------------------- end of the game
    # last[t]: turn t is the last one played.
    last = []
    for t in range(turns):
        nxt = h.active[t + 1] if t + 1 < turns else 0
        if fixed is None:
            b = m.new_bool_var(f"last_{t}")
            m.add(b == h.active[t] - nxt)
        else:
            b = m.new_constant(1 if t == turns - 1 else 0)
        last.append(b)
    hall_full = m.new_bool_var("hall_full")
    m.add(hall_count == HALL_SIZE).only_enforce_if(hall_full)
    m.add(hall_count <= HALL_SIZE - 1).only_enforce_if(~hall_full)
    depot_full = m.new_bool_var("depot_full")
    m.add(depot_count == DEPOT_SIZE).only_enforce_if(depot_full)
    m.add(depot_count <= DEPOT_SIZE - 1).only_enforce_if(~depot_full)
    end_used = m.new_bool_var("end_used")
    m.add(sum(h.end.values()) == end_used) if allow_end else m.add(end_used == 0)
    for (t, i), x in h.take.items():
        if i not in h.depot:
            continue
        if allow_end:
            m.add_implication(h.end[i], last[t]).only_enforce_if(x)  # END only on the last turn
        # a full hall ends the game: the 16th card is the last card
        m.add_implication(hall_full, _lit(m, in_hall[i])).only_enforce_if([x, last[t]])
        if rules.depot_full_ends_game:
            # depot_full_ends_game: the third depot card is the last card
            m.add_implication(depot_full, h.depot[i]).only_enforce_if([x, last[t]])
    # The game ends by a rule: full hall, END, or (option) a full depot. With a turn
    # limit, a game that reaches the limit may stop without any of them.
    causes = [hall_full, end_used] + ([depot_full] if rules.depot_full_ends_game else [])
    if turn_limit is None:
        m.add_bool_or(causes)
    else:
        m.add_bool_or(causes + [h.active[turns - 1]] if fixed is None else causes + [m.new_constant(1)])

    # -------------------------------------------------------------------- score
    _score(m, h, game, in_hall, in_market, filled_bool, kinds, depot_count, hall_count)
    m.maximize(h.score)
    return h


def _requirements(m, h: SoloModel, filled, kinds, rules) -> None:
    """Pairwise requirements between filled spots of each showcase (RULES.md 4 and 7)."""
    for position, kind in enumerate(rules.layout):
        start = showcase_start(position)
        row = list(range(start, start + kind.size))
        if kind is Showcase.ONE_DECADE:
            decade = m.new_int_var(0, 9, "one_decade")
            for s in row:
                m.add(h.year[s] >= 1900 + 10 * decade).only_enforce_if(filled[s])  # ONE DECADE
                m.add(h.year[s] <= 1909 + 10 * decade).only_enforce_if(filled[s])
        decades = {}
        if kind is Showcase.UNIQUE_DECADES:
            allowed = rules.allowed_unique_decades(1)
            for s in row:
                decades[s] = m.new_int_var_from_domain(cp_model.Domain.from_values(list(allowed)), f"decade_{s}")
                m.add(h.year[s] >= 1900 + 10 * decades[s]).only_enforce_if(filled[s])  # UNIQUE DECADES: allowed
                m.add(h.year[s] <= 1909 + 10 * decades[s]).only_enforce_if(filled[s])
        for a_i, a in enumerate(row):
            for b in row[a_i + 1 :]:
                both = m.new_bool_var(f"both_{a}_{b}")
                m.add_bool_or([~filled[a], ~filled[b], both])
                m.add_implication(both, filled[a])
                m.add_implication(both, filled[b])
                m.add(h.year[a] < h.year[b]).only_enforce_if(both)  # ascending years
                if kind is Showcase.CONTINENT:
                    m.add(h.continent[a] == h.continent[b]).only_enforce_if(both)  # ONE CONTINENT
                else:
                    m.add(h.continent[a] != h.continent[b]).only_enforce_if(both)  # different continents
                distance = b - a
                if kind is Showcase.ERA:
                    m.add(h.year[b] - h.year[a] <= 10 * distance).only_enforce_if(both)  # ONE ERA
                elif kind is Showcase.SPREAD_THE_YEARS:
                    m.add(h.year[b] - h.year[a] >= 20 * distance).only_enforce_if(both)  # SPREAD THE YEARS
                elif kind is Showcase.LINKS and distance == 1:
                    # LINKS: adjacent filled spots share a continent or are at most 5 years apart
                    same = m.new_bool_var(f"links_same_{a}")
                    m.add(h.continent[a] == h.continent[b]).only_enforce_if([both, same])
                    m.add(h.year[b] - h.year[a] <= 5).only_enforce_if([both, ~same])
                elif kind is Showcase.UNIQUE_DECADES:
                    m.add(decades[a] != decades[b]).only_enforce_if(both)  # UNIQUE DECADES: distinct


def pair_conflict(kind: Showcase, a: Card, b: Card, distance: int) -> bool:
    """True if ``a`` left of ``b`` (``distance`` spots apart) in ``kind`` breaks a requirement,
    judged on printed values only (white cards' continents are declared, so only years count)."""
    if a.year is None or b.year is None:
        return False
    if a.year >= b.year:
        return True  # ascending years
    if a.continent is not None and b.continent is not None:
        if kind is Showcase.CONTINENT and a.continent != b.continent:
            return True
        if kind is not Showcase.CONTINENT and a.continent == b.continent:
            return True
        if kind is Showcase.LINKS and distance == 1 and b.year - a.year > 5:
            return True
    gap = b.year - a.year
    if kind is Showcase.ERA and gap > 10 * distance:
        return True
    if kind is Showcase.SPREAD_THE_YEARS and gap < 20 * distance:
        return True
    if kind in (Showcase.ONE_DECADE, Showcase.UNIQUE_DECADES) and (kind is Showcase.ONE_DECADE) != (a.decade == b.decade):
        return True
    return False


def _pair_conflicts(m, h: SoloModel, rules) -> None:
    """Redundant clauses: two cards that cannot share a showcase this way never do. They
    restate the pairwise requirements on the cards themselves, which propagates far better."""
    placed = sorted({i for i, _ in h.spot})
    for position, kind in enumerate(rules.layout):
        start = showcase_start(position)
        row = range(start, start + kind.size)
        for a in row:
            for b in row:
                if b <= a:
                    continue
                for i in placed:
                    if (i, a) not in h.spot:
                        continue
                    for j in placed:
                        if j != i and (j, b) in h.spot and pair_conflict(kind, h.cards[i], h.cards[j], b - a):
                            m.add_bool_or([~h.spot[i, a], ~h.spot[j, b]])


def _score(m, h: SoloModel, game: Game, in_hall, in_market, filled, kinds, depot_count, hall_count) -> None:
    """The solo score x100, item by item (mirrors solver/scoring.py; tests compare the two)."""
    cards = h.cards
    rules = game.rules
    coloured = [i for i in in_hall if cards[i].continent is not None]
    counts = []
    for k in Continent:
        counts.append(sum(in_hall[i] for i in coloured if cards[i].continent == k))
    focus = m.new_int_var(0, HALL_SIZE, "focus")
    count_vars = []
    for k, expr in enumerate(counts):
        v = m.new_int_var(0, HALL_SIZE, f"count_{k}")
        m.add(v == expr)
        count_vars.append(v)
    m.add_max_equality(focus, count_vars)  # continent focus
    six = m.new_bool_var("all_six")
    for v in count_vars:
        m.add(six <= v)  # all 6 continents
    decade_terms = []
    for d in range(10):
        members = [in_hall[i] for i in in_hall if cards[i].decade == d]
        if members:
            b = m.new_bool_var(f"decade_{d}")
            m.add(b <= sum(members))  # number of decades
            decade_terms.append(b)
    # chain of years: choose one run of consecutive candidate years, all in the hall
    by_year = {cards[i].year: i for i in in_hall if cards[i].year is not None}
    chain_terms = []
    years = sorted(by_year)
    for a in years:
        b_year = a
        while b_year + 1 in by_year:
            b_year += 1
            z = m.new_bool_var(f"chain_{a}_{b_year}")
            for y in range(a, b_year + 1):
                m.add_implication(z, _lit(m, in_hall[by_year[y]]))
            chain_terms.append((z, b_year - a))
    if chain_terms:
        m.add(sum(z for z, _ in chain_terms) <= 1)
    chain = 1 + sum(z * extra for z, extra in chain_terms)
    mid = showcase_start(4)
    mid_value = sum(h.spot[i, mid] * (100 - 2 * abs(cards[i].year - 1950)) for i in in_hall
                    if (i, mid) in h.spot and not cards[i].is_einstein)
    items = {
        "all_continents": 100 * six,
        "continent_focus": 100 * focus,
        "decades": 100 * sum(decade_terms),
        "chain": 100 * chain,
        "years_gap": 0,
        "mid_century": mid_value,
        "short_era": 0,
        "antiquity": 0,
        "secret_decade": 100 * sum(in_hall[i] for i in in_hall if cards[i].decade == rules.secret_decade)
        if rules.secret_decade is not None else 0,
        "empty_spots": -100 * (HALL_SIZE - hall_count),
        "depot": -100 * depot_count,
    }
    market = [i for i in range(len(cards)) if cards[i].year is not None and not (isinstance(in_market[i], int) and in_market[i] == 0)]

    def count_market(name: str, predicate_lits: dict[int, object]) -> object:
        """Number of available cards for which the given literal holds (lower-bounded, exact at optimum)."""
        terms = []
        for i, lit in predicate_lits.items():
            o = m.new_bool_var(f"{name}_{cards[i].code}")
            avail = in_market[i]
            if isinstance(avail, int):
                if avail == 1:
                    m.add_implication(lit, o)
            else:
                m.add_bool_or([~lit, ~_lit(m, avail), o])
            terms.append(o)
        return sum(terms)

    def year_below(s: int, y: int, name: str) -> object:
        """Literal: a card of year y is older than the card on spot s."""
        b = m.new_bool_var(name)
        m.add(h.year[s] > y).only_enforce_if(b)
        m.add(h.year[s] <= y).only_enforce_if(~b)
        return b

    def year_above(s: int, y: int, name: str) -> object:
        """Literal: a card of year y is younger than the card on spot s."""
        b = m.new_bool_var(name)
        m.add(h.year[s] < y).only_enforce_if(b)
        m.add(h.year[s] >= y).only_enforce_if(~b)
        return b

    layout = game.layout
    einstein = [i for i in in_hall if cards[i].is_einstein]
    if Showcase.GAP in layout:
        left, right = showcase_start(3), showcase_start(3) + 1
        outside = {}
        for i in market:
            y = cards[i].year
            lo, hi = year_below(left, y, f"gap_lo_{i}"), year_above(right, y, f"gap_hi_{i}")
            # outside iff y < left year or y > right year
            o = m.new_bool_var(f"gap_out_{i}")
            m.add_bool_or([~lo, o])
            m.add_bool_or([~hi, o])
            outside[i] = o
        n_out = count_market("gap", {i: o for i, o in outside.items()})
        gap = m.new_int_var(0, 500, "years_gap")
        m.add(gap <= _floor_zero(m, 500 - 100 * n_out))  # YEARS GAP: max(0, 5 - outside cards)
        m.add(gap <= 500 * filled[left])
        m.add(gap <= 500 * filled[right])
        for i in einstein:
            for s in (left, right):
                if (i, s) in h.spot:
                    m.add(gap == 0).only_enforce_if(h.spot[i, s])  # Einstein: no gap score
        items["years_gap"] = gap
    if Showcase.SHORT_ERA in layout:
        row = [showcase_start(1) + k for k in range(4)]
        between = {i: _and(m, year_above(row[0], cards[i].year, f"se_a_{i}"), year_below(row[-1], cards[i].year, f"se_b_{i}"))
                   for i in market}
        n_in = count_market("short", between)
        short = m.new_int_var(0, 500, "short_era")
        m.add(short <= _floor_zero(m, 500 - 100 * n_in))  # SHORT ERA: max(0, 5 - cards strictly inside)
        for s in row:
            m.add(short <= 500 * filled[s])  # only if full
        items["short_era"] = short
    if Showcase.ANTIQUITY in layout:
        right = showcase_start(3) + 1
        older = {i: year_below(right, cards[i].year, f"an_{i}") for i in market}
        n_old = count_market("antiquity", older)
        antiquity = m.new_int_var(0, 500, "antiquity")
        m.add(antiquity <= _floor_zero(m, 500 - 100 * n_old))  # ANTIQUITY: max(0, 5 - cards older than the right)
        for s in (showcase_start(3), right):
            m.add(antiquity <= 500 * filled[s])
        items["antiquity"] = antiquity
    h.items = items
    h.score = sum(items.values())


def _floor_zero(m: cp_model.CpModel, expr) -> cp_model.IntVar:
    """max(0, expr) as a variable."""
    raw = m.new_int_var(-100 * 40, 500, "")
    m.add(raw == expr)
    out = m.new_int_var(0, 500, "")
    m.add_max_equality(out, [raw, 0])
    return out


def _lit(m: cp_model.CpModel, expr) -> object:
    """A literal equal to a 0/1 expression (the expression itself when it is a variable)."""
    if isinstance(expr, cp_model.IntVar):
        return expr
    b = m.new_bool_var("")
    m.add(b == expr)
    return b


def _and(m: cp_model.CpModel, a, b) -> object:
    c = m.new_bool_var("")
    m.add_bool_and([a, b]).only_enforce_if(c)
    m.add_bool_or([~a, ~b, c])
    return c
