"""The rules engine: the single authority on what is legal and what happens (RULES.md 2-5).

A :class:`Game` is immutable (deal, rules, number of players). States are values;
``apply_*`` return new states. A turn has two decision points: the *take* (before the
refill is seen) and the *place* (after). ``apply_turn`` does both.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from solver.cards import FIRST_YEAR, LAST_YEAR, Card, Continent
from solver.deal import FULL_DEAL, Deal
from solver.errors import IllegalMoveError, RulesError
from solver.moves import DEPOT, END, Declaration, Place, Take, Turn
from solver.requirements import violation
from solver.rules import COLUMN_SIZE, DEPOT_SIZE, MARKET_COLUMNS, MAX_PLAYERS, Showcase, spot_name
from solver.state import Board, Placed, State

ALL_CONTINENTS = frozenset(Continent)


def market_column(cards: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    """A market column in display order: ascending years, Einstein last."""
    return tuple(sorted(cards, key=Card.sort_key))


def declarations(c: Card) -> Iterator[Declaration]:
    """Every declaration a white card can make (1945: a continent; Einstein: continent and year)."""
    years = range(FIRST_YEAR, LAST_YEAR + 1) if c.is_einstein else (None,)
    for continent in Continent:
        for year in years:
            yield Declaration(continent, year)


class Game:
    """Deal + rules + number of players: asks nothing of the outside world."""

    def __init__(self, deal: Deal, players: int = 1) -> None:
        if not 1 <= players <= MAX_PLAYERS:
            raise RulesError(f"{players} players: the game is for 1 to {MAX_PLAYERS}")
        if players > 1 and len(deal.cards) < FULL_DEAL:
            raise RulesError(f"a {players}-player game needs a full deal of {FULL_DEAL} cards, not {len(deal.cards)}")
        self.deal = deal
        self.rules = deal.rules
        self.layout: tuple[Showcase, ...] = deal.rules.layout
        self.players = players

    # ----------------------------------------------------------------- set-up
    def initial_state(self) -> State:
        """Market of the first 18 cards in six columns; vehicles on OC, SA, ... in turn order."""
        cards = self.deal.cards
        market = tuple(market_column(cards[COLUMN_SIZE * i : COLUMN_SIZE * (i + 1)]) for i in range(MARKET_COLUMNS))
        return State(market=market, players=tuple(Board(vehicle=i) for i in range(self.players)))

    # ------------------------------------------------------------------ takes
    def take_columns(self, state: State) -> list[int]:
        """Columns the player may take from: the vehicle's, or every non-empty one if it is empty."""
        vehicle = state.board.vehicle
        if state.market[vehicle]:
            return [vehicle]
        return [i for i, column in enumerate(state.market) if column]

    def legal_takes(self, state: State) -> list[Take]:
        if state.is_over or state.holding is not None:
            return []
        takes = []
        for column in self.take_columns(state):
            for c in state.market[column]:
                if c.is_white:
                    takes.extend(Take(c, to) for to in Continent)
                else:
                    takes.append(Take(c))
        return takes

    def check_take(self, state: State, take: Take) -> None:
        """Raise IllegalMoveError naming the rule if ``take`` is not legal now."""
        if state.is_over:
            raise IllegalMoveError("the game is over")
        if state.holding is not None:
            raise IllegalMoveError(f"{state.holding.code} is taken and must be placed first")
        columns = self.take_columns(state)
        if not any(take.card in state.market[i] for i in columns):
            where = Continent(state.board.vehicle).name
            if len(columns) == 1:
                raise IllegalMoveError(f"take: {take.card.code} is not in the {where} column where the vehicle stands")
            raise IllegalMoveError(f"take: {take.card.code} is not in the market")
        if take.card.is_white and take.to is None:
            raise IllegalMoveError(f'take: white card {take.card.code} needs "to", the column the vehicle moves to')
        if not take.card.is_white and take.to is not None:
            raise IllegalMoveError(f'take: {take.card.code} is not white; its vehicle goes to {take.card.continent.name}, no "to"')

    def apply_take(self, state: State, take: Take, check: bool = True) -> State:
        """Phases 1-3: take, move the vehicle, refill the emptied column from the stock."""
        if check:
            self.check_take(state, take)
        column = next(i for i, col in enumerate(state.market) if take.card in col)
        remaining = [c for c in state.market[column] if c != take.card]
        drawn = state.drawn
        stock = self.deal.stock
        if drawn < len(stock):
            remaining.append(stock[drawn])
            drawn += 1
        market = state.market[:column] + (market_column(remaining),) + state.market[column + 1 :]
        vehicle = int(take.to if take.card.is_white else take.card.continent)
        players = _with_board(state.players, state.current, replace(state.board, vehicle=vehicle))
        return replace(state, market=market, players=players, drawn=drawn, holding=take.card)

    def take_only(self, state: State, take: Take, check: bool = True) -> State:
        """Market dynamics alone: take and refill, the placement skipped (it never changes the
        market or the vehicle). Used to check a take sequence before placing its cards."""
        return replace(self.apply_take(state, take, check), holding=None)

    # ----------------------------------------------------------------- places
    def placed_as(self, c: Card, declare: Declaration | None) -> Placed:
        """The Placed value for a card and its declaration (validated)."""
        if not c.is_white:
            if declare is not None:
                raise IllegalMoveError(f"{c.code} is not white and takes no declaration")
            return Placed(c, c.continent, c.year)
        if declare is None:
            what = "a continent and a year" if c.is_einstein else "a continent"
            raise IllegalMoveError(f'white card {c.code} placed in the hall needs "declare" with {what}')
        if c.is_einstein and declare.year is None:
            raise IllegalMoveError('Einstein needs a declared "year" as well as a continent')
        if not c.is_einstein and declare.year is not None:
            raise IllegalMoveError("the 1945 card keeps its year; declare only its continent")
        return Placed(c, declare.continent, declare.year if c.is_einstein else c.year)

    def spot_violation(self, state: State, flat: int, placed: Placed) -> str | None:
        """Why the player to move may not put ``placed`` on ``flat``; None if legal."""
        halls = [b.hall for b in state.players]
        return violation(self.rules, halls, state.current, flat, placed)

    def legal_spots(self, state: State, c: Card) -> Iterator[Place]:
        """Every legal hall placement of ``c`` for the player to move (whites: every declaration)."""
        for flat in range(len(state.board.hall)):
            if state.board.hall[flat] is not None:
                continue
            if c.is_white:
                for d in declarations(c):
                    if self.spot_violation(state, flat, self.placed_as(c, d)) is None:
                        yield Place(flat, d)
            elif self.spot_violation(state, flat, Placed(c, c.continent, c.year)) is None:
                yield Place(flat)

    def spot_options(self, state: State, c: Card) -> Iterator[Place]:
        """One legal placement per spot where ``c`` fits (for a white card: its first legal
        declaration there) - enough to list or judge spots without every declaration."""
        for flat in range(len(state.board.hall)):
            if state.board.hall[flat] is None:
                legal = (Place(flat, d) for d in (declarations(c) if c.is_white else (None,))
                         if self.spot_violation(state, flat, self.placed_as(c, d)) is None)
                first = next(legal, None)
                if first is not None:
                    yield first

    def place_options(self, state: State) -> list[Place]:
        """``legal_places`` with one declaration per spot for a white card."""
        return self._with_depot_and_end(state, list(self.spot_options(state, state.holding)))

    def has_legal_spot(self, state: State, c: Card) -> bool:
        return next(iter(self.legal_spots(state, c)), None) is not None

    def legal_places(self, state: State) -> list[Place]:
        if state.holding is None:
            return []
        return self._with_depot_and_end(state, list(self.legal_spots(state, state.holding)))

    @staticmethod
    def _with_depot_and_end(state: State, spots: list[Place]) -> list[Place]:
        """The legal spots, then END (only when there is no spot) and DEPOT (while it has room)."""
        if not spots:
            spots.append(Place(END))
        if len(state.board.depot) < DEPOT_SIZE:
            spots.append(Place(DEPOT))
        return spots

    def check_place(self, state: State, place: Place) -> None:
        """Raise IllegalMoveError naming the rule if ``place`` is not legal now."""
        c = state.holding
        if c is None:
            raise IllegalMoveError("no card is held: take one first")
        if place.target in (DEPOT, END):
            if place.declare is not None:
                raise IllegalMoveError("a declaration only goes with a hall spot")
            if place.target == DEPOT and len(state.board.depot) >= DEPOT_SIZE:
                raise IllegalMoveError(f"DEPOT: the depot already holds {DEPOT_SIZE} cards")
            if place.target == END:
                legal = next(iter(self.legal_spots(state, c)), None)
                if legal is not None:
                    raise IllegalMoveError(f"END while {spot_name(self.layout, legal.target)} is legal for {c.code}")
            return
        reason = self.spot_violation(state, place.target, self.placed_as(c, place.declare))
        if reason is not None:
            raise IllegalMoveError(f"{spot_name(self.layout, place.target)}: {reason}")

    def apply_place(self, state: State, place: Place, check: bool = True) -> State:
        """Phase 4: place the held card; then end the player's game if due, and pass the turn."""
        if check:
            self.check_place(state, place)
        c = state.holding
        board = state.board
        if place.target == DEPOT:
            board = replace(board, depot=board.depot + (c,))
            ended = self.rules.depot_full_ends_game and len(board.depot) == DEPOT_SIZE
            board = replace(board, ended=ended)
        elif place.target == END:
            board = replace(board, ended=True, discarded=c)
        else:
            hall = list(board.hall)
            hall[place.target] = self.placed_as(c, place.declare)
            board = replace(board, hall=tuple(hall), ended=all(p is not None for p in hall))
            if board.six_round is None and {p.card.continent for p in hall if p is not None} >= ALL_CONTINENTS:
                board = replace(board, six_round=state.round)
        state = replace(state, players=_with_board(state.players, state.current, board), holding=None, turn=state.turn + 1)
        return self._pass_turn(state)

    def _pass_turn(self, state: State) -> State:
        """Hand the turn to the next player whose game goes on; a player who cannot take ends."""
        current, round_ = state.current, state.round
        players = state.players
        for _ in range(2 * len(players)):
            if all(b.ended for b in players):
                break
            current = (current + 1) % len(players)
            if current == 0:
                round_ += 1
            board = players[current]
            if board.ended:
                continue
            if not any(state.market):  # no card anywhere: this player cannot take
                players = _with_board(players, current, replace(board, ended=True))
                continue
            break
        return replace(state, players=players, current=current, round=round_)

    # ------------------------------------------------------------------ turns
    def legal_turns(self, state: State) -> Iterator[Turn]:
        """Every whole turn (take, then each place legal after that take's refill)."""
        for take in self.legal_takes(state):
            after = self.apply_take(state, take, check=False)
            for place in self.legal_places(after):
                yield Turn(take, place)

    def apply_turn(self, state: State, turn: Turn, check: bool = True) -> State:
        return self.apply_place(self.apply_take(state, turn.take, check), turn.place, check)


def _with_board(players: tuple[Board, ...], index: int, board: Board) -> tuple[Board, ...]:
    return players[:index] + (board,) + players[index + 1 :]

