"""``exhibition play``: the solo puzzle in the terminal, one typed move at a time.

Moves, case-insensitive:
- take:  a card code from the vehicle's column, ``1903NA``; a white card with the column
  its vehicle goes to, ``1945>AF`` or ``EIN>SA``;
- place: ``ERA:2`` (showcase name and spot) or short ``e2`` (``g`` GENERAL, ``e`` ERA,
  ``c`` CONTINENT, ``y`` YEARS GAP, ``m`` MID CENTURY, or the variation in their place),
  ``depot`` (``d``) or ``end``; a white card adds its declaration: ``g3=AF``,
  ``e2=AF1950`` for Einstein;
- ``hint``, ``undo`` (back one decision), ``help``, ``quit``.

It reads standard input line by line, so a script can drive it (the tests do). A deal that
no solved puzzle holds is proven beside the game (``BackgroundOptimum``).
"""

from __future__ import annotations

import multiprocessing
import re
import sys
from multiprocessing.connection import Connection

import click

from cli.common import BadInput, RuleOverrides, emit_json, format_option, positive_seconds, resolve_deal, rule_options
from cli.render import breakdown_text, hall_text, market_table, value_precision
from puzzles.daily import Optimum, deal_optimum, load_solved, parse_date, proven_line, puzzle_of, target_of, today
from puzzles.ids import Puzzle
from solver.cards import Continent, card
from solver.deal import Deal
from solver.deck import default_deck
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.hints import OptimalLine, hint_hidden, hint_known, move_text
from solver.moves import DEPOT, END, Declaration, Place, Take, parse_target
from solver.rules import showcase_start
from solver.scoring import solo_breakdown
from solver.state import State
from solver.validate import hidden_stock

SHORT = {"g": 0, "e": 1, "c": 2, "y": 3, "m": 4}
PLACE = re.compile(r"^(?P<where>[a-z_]+:?\d*)(?:=(?P<continent>[a-z]{2})(?P<year>\d{4})?)?$")


# the typed notation as the module's docstring states it, without its literal marks, for the terminal
MOVES_HELP = __doc__.split("\n\n", 1)[1].split("\n\nIt reads")[0].replace("``", "")


def parse_take(text: str) -> Take:
    code, _, to = text.partition(">")
    c = card(code)
    if c.is_white and not to:
        raise ExhibitionError(f"{c.code} is white: say where the vehicle goes, like {c.code}>AF")
    if not c.is_white and to:
        raise ExhibitionError(f"{c.code} sends the vehicle to {c.continent.name} by itself: no >column")
    return Take(c, Continent.parse(to) if to else None)


def parse_place(text: str, game: Game) -> Place:
    match = PLACE.match(text.lower())
    if not match:
        raise ExhibitionError(f"{text!r} is not a place like e2, ERA:2, g3=AF, depot or end")
    where = match["where"]
    if where in ("d", "depot"):
        target = DEPOT
    elif where == "end":
        target = END
    elif where[0] in SHORT and where[1:].isdigit() and len(where) > 1:
        position, spot = SHORT[where[0]], int(where[1:])
        size = game.layout[position].size
        if not 1 <= spot <= size:
            raise ExhibitionError(f"{game.layout[position].name} has spots 1-{size}")
        target = showcase_start(position) + spot - 1
    else:
        target = parse_target(where, game.layout)
    declare = None
    if match["continent"]:
        year = int(match["year"]) if match["year"] else None
        declare = Declaration(Continent.parse(match["continent"]), year)
    return Place(target, declare)


class BackgroundOptimum:
    """The deal's optimum (``deal_optimum``), proven in a process of its own from the start
    of the game: the player's thinking time pays for the proof, so the end of the game shows
    the optimum at once rather than after up to ``--time-limit`` seconds, and known-deal
    hints value the moves of its line exactly once it is proven. A process, not a thread, so
    that quitting stops it at once (a CP-SAT solve in a thread cannot be cut short); spawned,
    not forked, as forking a process that may run CP-SAT's threads is unsafe."""

    def __init__(self, game: Game, time_limit: float) -> None:
        self.game, self.time_limit = game, time_limit
        context = multiprocessing.get_context("spawn")
        self._answer, sending = context.Pipe(duplex=False)
        self._process = context.Process(target=_prove_and_send, args=(game.deal, time_limit, sending), daemon=True)
        self._process.start()
        sending.close()  # the child holds its own end: if it dies, this end reads EOF
        self._found: Optimum | None = None
        self._failed = False

    def ready(self) -> Optimum | None:
        """The optimum if the proof has ended, else None (without waiting)."""
        if self._found is None and not self._failed and self._answer.poll():
            self._receive()
        return self._found

    def result(self) -> Optimum:
        """The optimum, waiting for the proof to end; proven here and now if the process
        ended without an answer."""
        if self._found is None and not self._failed:
            self._receive()
        if self._found is None:
            self._found = deal_optimum(self.game, self.time_limit)
        return self._found

    def stop(self) -> None:
        """Stop the proof if it still runs."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._answer.close()

    def _receive(self) -> None:
        try:
            self._found = self._answer.recv()
        except EOFError:
            self._failed = True


def _prove_and_send(deal: Deal, time_limit: float, sending: Connection) -> None:
    """``BackgroundOptimum``'s process."""
    sending.send(deal_optimum(Game(deal), time_limit))
    sending.close()


class Session:
    """The game being played: the states so far (for undo) and how to show them.
    ``optimal_line``: a proven line of the deal (a solved puzzle's stored one), whose moves
    known-deal hints value exactly; else ``optimum``, the proof running beside the game,
    gives one when it ends proven."""

    def __init__(self, game: Game, blind: bool, out, optimal_line: OptimalLine | None = None,
                 optimum: BackgroundOptimum | None = None) -> None:
        self.game = game
        self.blind = blind
        self.out = out
        self.optimal_line = optimal_line
        self.optimum = optimum
        self.states: list[State] = [game.initial_state()]

    @property
    def state(self) -> State:
        return self.states[-1]

    def show(self) -> None:
        state, game = self.state, self.game
        echo = self.out
        echo("")
        echo(market_table(state, default_deck(), "text"))
        if not self.blind:
            echo("stock, top first: " + " ".join(c.code for c in game.deal.stock[state.drawn:state.drawn + 8]) + " ...")
        echo(hall_text(game, state))
        echo(f"score now {solo_breakdown(game, state).total}   turn {state.turn + 1}")
        if state.holding is not None:
            echo(f"place {state.holding.code}: spot (e2, ERA:2{', g3=AF' if state.holding.is_white else ''}), depot or end")
        else:
            echo(f"take a card of the {Continent(state.board.vehicle).name} column (vehicle *)")

    def hint(self, budget: float) -> None:
        if self.blind:
            stock = hidden_stock(self.state, default_deck())
            found = hint_hidden(self.game, self.state, stock, budget, samples=8)
        else:
            if self.optimal_line is None and self.optimum is not None:
                ended = self.optimum.ready()
                self.optimal_line = None if ended is None else ended.line  # None too if not proven in time
            found = hint_known(self.game, self.state, budget, optimal_line=self.optimal_line)
        for rank, option in enumerate(found.options[:5], 1):
            self.out(f"  {rank}. {move_text(option.move, self.game):<16} value {option.value:.0f} "
                     f"({value_precision(option, found.mode)})  loss {option.loss:.0f}")

    def move(self, text: str) -> None:
        state = self.state
        if state.holding is None:
            self.states.append(self.game.apply_take(state, parse_take(text)))
        else:
            self.states.append(self.game.apply_place(state, parse_place(text, self.game)))


def _source(date_text, seed, deal_path, overrides) -> tuple[Game, bool, Puzzle | None]:
    given = sum(x is not None for x in (date_text, seed, deal_path))
    if given > 1:
        raise BadInput("give at most one of --date, --seed or --deal")
    if seed is not None or deal_path is not None:
        return Game(resolve_deal(deal_path, seed, None, overrides)), False, None
    puzzle, _ = puzzle_of(parse_date(date_text) if date_text else today())
    return Game(puzzle.deal), puzzle.mode == "blind", puzzle


@click.command(name="play")
@click.option("--date", "date_text", help="Play the daily puzzle of this date (default: today's).")
@click.option("--seed", type=int, help="Play a seeded deal.")
@click.option("--deal", "deal_path", type=click.Path(dir_okay=False), help="Play a deal file.")
@click.option("--blind", is_flag=True, help="Hide the stock order (a daily blind puzzle always does).")
@click.option("--hint-budget", type=float, default=5.0, show_default=True, callback=positive_seconds,
              help="Seconds a hint may take.")
@click.option("--time-limit", type=float, default=60.0, show_default=True, callback=positive_seconds,
              help="Seconds to prove the optimum shown at the end (daily puzzles: usually stored).")
@rule_options
@format_option()
def play_command(date_text: str | None, seed: int | None, deal_path: str | None, blind: bool, hint_budget: float,
                 time_limit: float, overrides: RuleOverrides, fmt: str) -> None:
    """Play a solo puzzle in the terminal: take, place, hint, undo, quit."""
    game, daily_blind, puzzle = _source(date_text, seed, deal_path, overrides)
    line = proven_line(game.deal)
    # a deal no solved puzzle holds: its optimum proven beside the game (a daily puzzle's
    # target is stored, or generated at the end as ``daily`` would)
    optimum = BackgroundOptimum(game, time_limit) if puzzle is None and line is None else None
    session = Session(game, blind or daily_blind, click.echo, line, optimum)
    try:
        if _played_to_the_end(session, hint_budget):
            _show_result(session, puzzle, time_limit, fmt)
        else:
            click.echo("bye")
    finally:
        if optimum is not None:
            optimum.stop()


def _played_to_the_end(session: Session, hint_budget: float) -> bool:
    """Read and play the commands of standard input: True once the game is over, False on
    ``quit`` or the end of the input."""
    click.echo(MOVES_HELP)
    session.show()
    for raw in iter(sys.stdin.readline, ""):
        text = raw.strip()
        if not text:
            continue
        command = text.lower()
        if command in ("quit", "q", "exit"):
            return False
        if command == "help":
            click.echo(MOVES_HELP)
            continue
        if command == "undo":
            if len(session.states) > 1:
                session.states.pop()
            else:
                click.echo("nothing to undo")
            session.show()
            continue
        try:
            if command == "hint":
                session.hint(hint_budget)
                continue
            session.move(text)
        except ExhibitionError as exc:
            click.echo(f"not legal: {' '.join(str(exc).split())}")
            continue
        if session.state.is_over:
            return True
        session.show()
    return False


def _show_result(session: Session, puzzle: Puzzle | None, time_limit: float, fmt: str) -> None:
    """The final hall, the breakdown, and the score against the optimum."""
    game, state = session.game, session.state
    breakdown = solo_breakdown(game, state)
    if puzzle is not None:
        entry = target_of(puzzle, time_limit, solved=load_solved())
        best, proven = entry.target, entry.status == "optimal"
    else:
        found = session.optimum.result() if session.optimum is not None else deal_optimum(game, time_limit)
        found = found.at_least(breakdown.total)
        best, proven = found.score, found.status == "optimal"
    if fmt == "json":  # the last line of the session: its result for tools
        emit_json({"score": breakdown.total, "optimum": best, "proven": proven, "breakdown": breakdown.as_dict()})
        return
    click.echo("")
    click.echo(hall_text(game, state))
    click.echo("")
    click.echo(breakdown_text(breakdown, fmt))
    click.echo(f"\nyour score {breakdown.total}; {'proven optimum' if proven else 'best found'} {best}")
