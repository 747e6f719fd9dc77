"""True upper bounds on a solo score, computed without CP-SAT: item by item over the cards
a game can still own (``item_caps``, ``static_bound``), and over the prefixes of a known
take sequence (``sequence_bound``), which spares the dives' placements that cannot beat
the best plan (``solver.solve.place_candidates``). Each item's cap is the most it can
score over any hall those cards make, so every bound here is a true bound; the tests
check them against CP-SAT's exact placements and a brute force.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Sequence

from solver.cards import Card, Continent
from solver.engine import Game
from solver.model import Start, candidate_cards, start_of
from solver.moves import Take
from solver.requirements import showcase_row, violation
from solver.rules import HALL_SIZE, Rules, Showcase, focus_most, showcase_start
from solver.scoring import (antiquity_points, continent_focus, decade_count, has_all_continents, longest_chain,
                            secret_decade_hits, short_era_points, years_gap_points)
from solver.state import Placed, State

# The showcases whose room ``_hall_room`` counts by years too: the most cards their years
# fit together. Only ONE DECADE, whose four cards of four continents in one decade many
# dive sequences lack: the two wide dives of 30 deals asked CP-SAT 883 placements against
# 1324, 76.2 s against 81.3 s (whole proofs, paired: 325.7 s against 331.7 s over the 28
# deals both proved, faster on 20: the dives are a small share). The others' years nearly
# always fit: of the first wide dives' sequences of 10 deals, 6 bounded lower with ONE ERA,
# 1 with SPREAD THE YEARS, 26 with LINKS and 94 with UNIQUE DECADES, and the dives of 12
# deals took as long with the last two, at 0.7-1.3 ms more a sequence (benchmarks/README.md,
# sixty-seventh session).
YEAR_BOUND = frozenset({Showcase.ONE_DECADE})


def item_caps(game: Game, start: Start | None = None) -> dict[str, int]:
    """A true upper bound on each score item from ``start`` (default: the deal's first
    state), over the candidate cards; their sum is ``static_bound``. Items not in the
    rules in force are absent."""
    return _caps_over(game, candidate_cards(start or start_of(game)))


def _caps_over(game: Game, cards: list[Card]) -> dict[str, int]:
    """Each score item's most over a hall drawn from ``cards``, item by item (the focus
    and all six continents from their colours too)."""
    caps = {
        "all_continents": 100 * has_all_continents(cards),
        "continent_focus": 100 * min(focus_most(game.layout), continent_focus(cards)),
        "decades": 100 * decade_count(cards),
        "chain": 100 * longest_chain(cards),
        "mid_century": max((100 - 2 * abs(c.year - 1950) for c in cards if c.year is not None), default=0),
        "empty_spots": 0,
        "depot": 0,
    }
    for kind, item in ((Showcase.GAP, "years_gap"), (Showcase.SHORT_ERA, "short_era"), (Showcase.ANTIQUITY, "antiquity")):
        if kind in game.layout:
            caps[item] = 500
    if game.rules.secret_decade is not None:
        caps["secret_decade"] = 100 * min(HALL_SIZE, secret_decade_hits(cards, game.rules.secret_decade))
    return caps


def sequence_bound(game: Game, state: State, takes: list[Take]) -> int:
    """A true upper bound on the score of any game from ``state`` that plays a prefix of
    ``takes`` and ends there (a placement with the game free to stop early): over each
    prefix, the item caps of the cards it owns (hall, held, taken: ``_caps_over``), with
    YEARS GAP, SHORT ERA and ANTIQUITY from their years (``_years_gap_cap``,
    ``_short_era_cap``, ``_antiquity_cap``) and the market the prefix leaves,
    and the empty spots and depot cards that so many cards must leave, fewer spots filled
    where the room in the hall (``_hall_room``: by continents, and in ONE DECADE by
    decades) takes fewer of the new cards;
    that room is counted only for the prefixes whose bound without it may still be the
    largest. About 1.5 ms a sequence, against 30-90 ms for placing it, which it
    spares when the bound cannot beat a floor (``solver.solve.place_candidates``): of the
    1275 sequences of the 30 benchmark deals' first wide dives, 671 asked of CP-SAT against
    817 with neither the two years' continents nor the room, and the same plans found in
    30.3 s against 35.3 s (benchmarks/README.md, sixty-first session)."""
    board = state.board
    owned = board.hall_cards + ([state.holding] if state.holding is not None else [])
    filled = len(board.hall_cards)
    by_prefix = []  # (bound with every owned card able to fill a spot, the caps but those two, how many owned)
    for k in range(len(takes) + 1):
        if k:
            state = game.take_only(state, takes[k - 1], check=False)
            owned.append(takes[k - 1].card)
        caps = _caps_over(game, owned)
        if "years_gap" in caps:
            caps["years_gap"] = _years_gap_cap(owned, state.market_cards)
        if "short_era" in caps:
            caps["short_era"] = _short_era_cap(owned, state.market_cards)
        if "antiquity" in caps:
            caps["antiquity"] = _antiquity_cap(owned, state.market_cards)
        rest = sum(v for item, v in caps.items() if item not in ("empty_spots", "depot"))
        by_prefix.append((rest + _spot_penalty(len(owned), len(owned), len(board.depot)), rest, len(owned)))
    best = None
    for loose, rest, count in sorted(by_prefix, key=lambda prefix: -prefix[0]):
        if best is not None and loose <= best:
            break
        spots = filled + _hall_room(game.rules, board.hall, owned[filled:count])
        bound = rest + _spot_penalty(count, spots, len(board.depot))
        best = bound if best is None else max(best, bound)
    return best


def _spot_penalty(owned: int, spots: int, depot: int) -> int:
    """Empty spots and depot cards (x100, negative) of a game that ends owning ``owned``
    cards (hall, held, taken; not the ``depot`` cards already there), of which at most
    ``spots`` can stand in the hall: the others go to the depot, but for one that may leave
    the game as the last card taken (END)."""
    placed = min(HALL_SIZE, owned, spots)
    return -100 * (HALL_SIZE - placed) - 100 * (depot + max(0, owned - placed - 1))


def _hall_room(rules: Rules, hall: Sequence[Placed | None], cards: list[Card]) -> int:
    """The most of ``cards`` that the empty spots of ``hall`` can take, by continents: a
    showcase takes one card of a continent (ONE CONTINENT: of its one continent), a white
    card of any continent it declares, but in no variation showcase. Each continent that
    ONE CONTINENT may hold is tried, with its cards in it and white cards filling the rest
    (a spot no other card can take); the other showcases take a maximum flow, found as the
    smallest cut: a set X of showcases cut from the sink (their room), then each continent
    either cut from the source (its cards) or from the showcases outside X that take it
    (one each), and the white cards unless none of those takes them. Years count only in
    a showcase whose requirement ties them (``YEAR_BOUND``): its room is at most what
    ``showcase_room`` fits in it. Otherwise years are left out: a bound."""
    layout = rules.layout
    counts = [0] * len(Continent)
    for c in cards:
        if not c.is_white:
            counts[c.continent] += 1
    whites = len(cards) - sum(counts)
    others, one_continent = [], None  # others: (room, continents taken, takes white cards)
    for position, kind in enumerate(layout):
        row = [p for p in showcase_row(hall, position, layout) if p is not None]
        if kind is Showcase.CONTINENT:
            one_continent = (kind.size - len(row), {p.continent for p in row})
        elif len(row) < kind.size:
            room = kind.size - len(row)
            if kind in YEAR_BOUND:
                room = min(room, showcase_room(rules, hall, position, cards))
            others.append((room, {p.continent for p in row}, not kind.is_variation))
    cuts = []  # each X: the room cut off, how many showcases outside X take each continent, and white cards
    for x in range(1 << len(others)):
        outside = [s for i, s in enumerate(others) if not x >> i & 1]
        cuts.append((sum(room for i, (room, _, _) in enumerate(others) if x >> i & 1),
                     [sum(1 for _, taken, _ in outside if k not in taken) for k in Continent],
                     any(takes_white for _, _, takes_white in outside)))

    def flow(coloured: list[int], white_cards: int) -> int:
        """The most of so many cards of each continent and white cards the showcases but ONE CONTINENT take."""
        return min(room + sum(map(min, coloured, takers)) + (white_cards if takes_white else 0)
                   for room, takers, takes_white in cuts)

    if one_continent is None:
        return flow(counts, whites)
    room, held = one_continent
    # fewer of its cards than fit leave room for white cards, which pays only where another
    # card needs their spot in a variation showcase, barred to white cards
    barred = whites > 0 and any(not takes_white for _, _, takes_white in others)
    best = 0
    for chosen in held or {k for k in Continent if counts[k]} or {Continent.NA}:  # NA: no coloured card, any one
        most = min(room, counts[chosen])
        for own in range(most + 1) if barred else (most,):
            left = counts[:chosen] + [counts[chosen] - own] + counts[chosen + 1:]
            into = min(room - own, whites)
            best = max(best, own + into + flow(left, whites - into))
    return best


def showcase_room(rules: Rules, hall: Sequence[Placed | None], position: int, cards: list[Card]) -> int:
    """The most of ``cards`` that the empty spots of showcase ``position`` of a solo ``hall``
    can take at once: its coloured cards by every arrangement the engine's own check
    (``violation``) allows, depth first, spot by spot from the left, each spot empty or
    with a card newer than the last one placed; its white cards, where the showcase takes
    them, as fitting anywhere (a bound)."""
    start, kind = showcase_start(position), rules.layout[position]
    free = [start + i for i in range(kind.size) if hall[start + i] is None]
    coloured = [Placed(c, c.continent, c.year) for c in sorted((c for c in cards if not c.is_white),
                                                                key=attrgetter("year"))]
    whites = 0 if kind.is_variation else sum(1 for c in cards if c.is_white)
    most = 0

    def fill(row: tuple, k: int, count: int, after: int) -> None:
        """The arrangements with ``count`` cards on the spots before ``free[k]`` and none of
        ``coloured[:after]`` after them."""
        nonlocal most
        most = max(most, count)
        if k == len(free) or count + len(free) - k <= most:
            return
        flat = free[k]
        for j in range(after, len(coloured)):
            placed = coloured[j]
            if violation(rules, [row], 0, flat, placed) is None:
                fill(row[:flat] + (placed,) + row[flat + 1:], k + 1, count + 1, j + 1)
                if most == len(free):
                    return
        fill(row, k + 1, count, after)

    fill(tuple(hall), 0, 0, 0)
    return min(len(free), most + whites)


def _years_gap_cap(owned: list[Card], market: list[Card]) -> int:
    """YEARS GAP's most with its two cards among ``owned`` (of two continents: a white
    card's is declared) and ``market`` left at the end. The widest such pair leaves the
    fewest market cards outside, and it holds the oldest card or the newest: a pair of
    neither, of two continents, has one not of the newest's continent, which the newest
    widens, or one not of the oldest's, which the oldest widens. So two pairs are scored:
    the oldest with the newest card it may pair with, the newest with the oldest."""
    dated = [c for c in owned if c.year is not None]
    if len(dated) < 2:
        return 0

    def fits(left: Card, right: Card) -> bool:
        return left.year < right.year and (left.is_white or right.is_white or left.continent != right.continent)

    year = attrgetter("year")
    oldest, newest = min(dated, key=year), max(dated, key=year)
    pairs = [(oldest, max((c for c in dated if fits(oldest, c)), key=year, default=None)),
             (min((c for c in dated if fits(c, newest)), key=year, default=None), newest)]
    market_years = [c.year for c in market if c.year is not None]
    return max((years_gap_points(left.year, right.year, market_years) for left, right in pairs
                if left is not None and right is not None), default=0)


def _short_era_cap(owned: list[Card], market: list[Card]) -> int:
    """SHORT ERA's most with its full showcase among ``owned`` (coloured cards of as many
    continents as it has spots: white cards are barred) and ``market`` left at the end.
    For each oldest card, the nearest newest card that leaves cards of enough other
    continents between them: the market cards between the two only grow as the newest
    moves on."""
    coloured = sorted((c for c in owned if not c.is_white), key=attrgetter("year"))
    inner = Showcase.SHORT_ERA.size - 2
    market_years = [c.year for c in market if c.year is not None]
    best = 0
    for i, left in enumerate(coloured):
        for j in range(i + inner + 1, len(coloured)):
            right = coloured[j]
            between = {c.continent for c in coloured[i + 1:j]} - {left.continent, right.continent}
            if right.continent != left.continent and len(between) >= inner:
                best = max(best, short_era_points(left.year, right.year, market_years))
                break
    return best


def _antiquity_cap(owned: list[Card], market: list[Card]) -> int:
    """ANTIQUITY's most with its two cards among ``owned`` (coloured, of two continents) and
    ``market`` left at the end: the oldest card with an older one of another continent
    leaves the fewest market cards older than it."""
    coloured = sorted((c for c in owned if not c.is_white), key=attrgetter("year"))
    market_years = [c.year for c in market if c.year is not None]
    for k, right in enumerate(coloured):
        if any(c.continent != right.continent for c in coloured[:k]):
            return antiquity_points(right.year, market_years)
    return 0


def static_bound(game: Game, start: Start | None = None) -> int:
    """A quick true upper bound on any solo score from ``start``, item by item over the
    candidate cards: for search-tree leaves left unexplored, and when CP-SAT has no bound."""
    return sum(item_caps(game, start).values())
