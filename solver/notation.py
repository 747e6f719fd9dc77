"""Compact one-line, shell-safe text forms of a deal and of a game state.

They use only letters, digits and ``/ , . : = _ - +``, so they paste into a shell
unquoted. For every canonical string ``s``: ``format_x(parse_x(s)) == s``.

Deal:  ``<rules>/<card>.<card>...``  e.g. ``base/1903NA.1945.EIN.1911SA...`` (top card first)

State: ``<rules>/<market>/<progress>/<player>[/<player>...]``

- rules: ``base``, or ``+``-joined tokens: variation names, ``SD<d>`` (secret decade),
  ``DFE`` (depot_full_ends_game); e.g. ``SHORT_ERA+LINKS+SD4``.
- market: six columns (OC SA AF AS EU NA) joined by ``,``; a column's cards joined by
  ``.`` in display order; ``-`` for an empty column.
- progress: ``t<completed turns>r<round>p<player to move, from 0>d<stock cards drawn>``,
  then ``h<card>`` when a taken card waits to be placed (the *place* decision).
- player: ``<vehicle>:<hall>:<depot>:<flags>``; hall: five showcases joined by ``,``,
  spots joined by ``.``, ``_`` an empty spot, ``1945=AF`` and ``EIN=AF1950`` white cards
  with their declarations; depot: cards joined by ``.`` or ``-``; flags: ``-``, or
  ``s<round>`` (all six continents reached in that round) then ``x`` (game ended) or
  ``x<card>`` (ended by removing that card).
"""

from __future__ import annotations

import re

from solver.cards import FIRST_YEAR, LAST_YEAR, Card, Continent, card
from solver.deal import Deal, parse_cards
from solver.errors import CardError, ExhibitionError, NotationError
from solver.rules import BASE_LAYOUT, MARKET_COLUMNS, VARIATIONS, Rules, Showcase
from solver.state import Board, Placed, State

_SAFE = re.compile(r"^[A-Za-z0-9/,.:=_+\-]+$")


# --------------------------------------------------------------------- rules
def format_rules(rules: Rules) -> str:
    tokens = [v.name for v in VARIATIONS if v in rules.variations]
    if rules.secret_decade is not None:
        tokens.append(f"SD{rules.secret_decade}")
    if rules.depot_full_ends_game:
        tokens.append("DFE")
    return "+".join(tokens) or "base"


def parse_rules(text: str) -> Rules:
    if text.lower() == "base":
        return Rules()
    variations: list[Showcase] = []
    decade = None
    depot = False
    for token in text.upper().split("+"):
        if re.fullmatch(r"SD\d", token):
            decade = int(token[2:])
        elif token == "DFE":
            depot = True
        else:
            try:
                showcase = Showcase[token]
            except KeyError:
                raise NotationError(f"rules token {token!r} is not a variation, SD<d> or DFE") from None
            if not showcase.is_variation:
                raise NotationError(f"rules token {token!r} is a base showcase, not a variation")
            variations.append(showcase)
    return Rules(frozenset(variations), decade, depot)


# ---------------------------------------------------------------------- deal
def format_deal(deal: Deal) -> str:
    return f"{format_rules(deal.rules)}/" + ".".join(c.code for c in deal.cards)


def parse_deal(text: str) -> Deal:
    text = _checked(text, "deal")
    rules_text, sep, cards_text = text.partition("/")
    if not sep:
        raise NotationError("a deal notation is <rules>/<card>.<card>... (for example base/1903NA.1945...)")
    return Deal(parse_cards(cards_text.split(".")), parse_rules(rules_text))


# --------------------------------------------------------------------- state
def _cards(text: str, what: str) -> tuple[Card, ...]:
    if text == "-":
        return ()
    try:
        return tuple(card(t) for t in text.split("."))
    except CardError as exc:
        raise NotationError(f"{what}: {exc}") from None


def _format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return ".".join(c.code for c in cards) or "-"


def _placed(token: str, what: str) -> Placed | None:
    if token == "_":
        return None
    code, eq, decl = token.partition("=")
    try:
        c = card(code)
    except CardError as exc:
        raise NotationError(f"{what}: {exc}") from None
    if not c.is_white:
        if eq:
            raise NotationError(f"{what}: {c.code} is not white and takes no declaration")
        return Placed(c, c.continent, c.year)
    match = re.fullmatch(r"([A-Z]{2})(\d{4})?", decl)
    if not eq or not match or match.group(1) not in Continent.__members__:
        raise NotationError(f"{what}: white card {token!r} needs its declaration, like 1945=AF or EIN=AF1950")
    continent = Continent[match.group(1)]
    if c.is_einstein:
        if match.group(2) is None or not FIRST_YEAR <= int(match.group(2)) <= LAST_YEAR:
            raise NotationError(f"{what}: Einstein needs a declared year 1900-1999, like EIN=AF1950")
        return Placed(c, continent, int(match.group(2)))
    if match.group(2) is not None:
        raise NotationError(f"{what}: the 1945 card declares only a continent, like 1945=AF")
    return Placed(c, continent, c.year)


def _format_board(board: Board) -> str:
    rows, start = [], 0
    for showcase in BASE_LAYOUT:
        spots = board.hall[start : start + showcase.size]
        rows.append(".".join("_" if p is None else p.code for p in spots))
        start += showcase.size
    flags = (f"s{board.six_round}" if board.six_round is not None else "") + (
        "x" + (board.discarded.code if board.discarded else "") if board.ended else ""
    )
    return f"{Continent(board.vehicle).name}:{','.join(rows)}:{_format_cards(board.depot)}:{flags or '-'}"


def _parse_board(text: str, number: int) -> Board:
    what = f"player {number}"
    parts = text.split(":")
    if len(parts) != 4:
        raise NotationError(f"{what}: expected <vehicle>:<hall>:<depot>:<flags>, got {text!r}")
    vehicle_text, hall_text, depot_text, flags = parts
    try:
        vehicle = int(Continent.parse(vehicle_text))
    except CardError:
        raise NotationError(f"{what}: vehicle {vehicle_text!r} is not a continent column") from None
    rows = hall_text.split(",")
    sizes = [s.size for s in BASE_LAYOUT]
    if len(rows) != len(sizes):
        raise NotationError(f"{what}: the hall has {len(sizes)} showcases, got {len(rows)}")
    hall: list[Placed | None] = []
    for index, (row, size) in enumerate(zip(rows, sizes)):
        spots = row.split(".")
        if len(spots) != size:
            raise NotationError(f"{what}: showcase {index + 1} has {size} spots, got {len(spots)}")
        hall.extend(_placed(s, what) for s in spots)
    match = re.fullmatch(r"(?:s(\d+))?(?:(x)(\w*))?", "" if flags == "-" else flags)
    if not match or not flags:
        raise NotationError(f"{what}: flags {flags!r} are not -, s<round>, x or x<card>")
    six = int(match.group(1)) if match.group(1) else None
    ended = match.group(2) is not None
    discarded = _cards(match.group(3), what)[0] if match.group(3) else None
    return Board(vehicle, tuple(hall), _cards(depot_text, f"{what} depot"), ended, discarded, six)


_PROGRESS = re.compile(r"t(\d+)r(\d+)p(\d+)d(\d+)(?:h(\w+))?")


def format_state(state: State, rules: Rules) -> str:
    market = ",".join(_format_cards(col) for col in state.market)
    progress = f"t{state.turn}r{state.round}p{state.current}d{state.drawn}"
    if state.holding is not None:
        progress += f"h{state.holding.code}"
    players = "/".join(_format_board(b) for b in state.players)
    return f"{format_rules(rules)}/{market}/{progress}/{players}"


def parse_state(text: str) -> tuple[State, Rules]:
    """Parse a state notation into (state, rules). Shape only: see validate.py for reachability."""
    text = _checked(text, "state")
    fields = text.split("/")
    if len(fields) < 4:
        raise NotationError("a state notation is <rules>/<market>/<progress>/<player>[/<player>...]")
    try:
        rules = parse_rules(fields[0])
    except ExhibitionError as exc:
        raise NotationError(f"rules: {exc}") from None
    columns = fields[1].split(",")
    if len(columns) != MARKET_COLUMNS:
        raise NotationError(f"market: expected {MARKET_COLUMNS} columns joined by ',', got {len(columns)}")
    market = tuple(_cards(col, f"market column {Continent(i).name}") for i, col in enumerate(columns))
    match = _PROGRESS.fullmatch(fields[2])
    if not match:
        raise NotationError(f"progress {fields[2]!r} is not t<turn>r<round>p<player>d<drawn>[h<card>]")
    turn, round_, current, drawn = (int(match.group(i)) for i in range(1, 5))
    holding = _cards(match.group(5), "held card")[0] if match.group(5) else None
    players = tuple(_parse_board(t, n) for n, t in enumerate(fields[3:], 1))
    if current >= len(players):
        raise NotationError(f"progress: player {current} to move, but there are {len(players)} players")
    return State(market, players, current, drawn, turn, round_, holding), rules


def _checked(text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise NotationError(f"{what} notation is empty")
    if not _SAFE.match(text):
        bad = next(ch for ch in text if not _SAFE.match(ch))  # a text that is not empty fails on a character
        raise NotationError(f"{what} notation contains {bad!r}; allowed are letters, digits and / , . : = _ - +")
    return text
