"""The daily puzzle: one solo deal per UTC date, the same on every machine, with a proven
target score and a difficulty grade.

How a date becomes a puzzle (selection rule ``v1``, frozen: changing it would change past
puzzles, so a new rule gets a new name):

- The date seeds everything: ``seed_from_text("daily:v1:YYYY-MM-DD")``.
- The day's rules: base rules most days; one day in seven a variation showcase, one in
  seven the secret decade variant (both picked from the seed). The mode: *blind* (stock
  hidden, as in a real game) on Sundays, *open* (the whole stock order shown) otherwise.
- Candidates ``k = 0, 1, ...`` are seeded deals of the default deck. Each is screened with
  signals that are exact and therefore the same on every machine: the greedy line's score
  (``solver/greedy.py``) and the *heuristic* score (the beam sequence of the warm start's
  first version, ``FIRST_HEURISTIC`` in ``solver/warmstart.py``, with its proven optimal
  placement). The first candidate whose heuristic already beats the challenge line of 2025
  while greedy falls at least 800 short of it is kept (if none of 12 does, the one with the
  best heuristic).
- The kept deal is solved to a proven optimum: the target (by the proof by cells of
  ``solver/cells.py``, ``GENERATION_METHOD``). Where the proof does not finish
  in the time given, the target is the best score found with its bound, and says so; such
  an entry of the solved file can be worked on later (``prove_further``: the cells method
  from its best line), which may raise the target to the optimum, never change the deal.

Difficulty (``grade``) from measured signals of the solved puzzle:
- ``idea``: the target beats the strong heuristic by 100 or more (one point), 300 or more
  (a second point): the best line is not what a good rule of thumb finds;
- ``unique``: only one first take reaches the target (one point), each other first take
  asked of the dives and cells with it fixed (``solver.cells.opening_reaches``) in the
  time the proof left of the limit; not counted (unknown) when that time runs out;
- ``depot``: the best line uses the depot (one point); ``white``: it plays a white card
  (one point); ``blind`` mode (one point).
0 points: easy; 1: medium; 2: hard; 3 or more: expert.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable, NamedTuple

from puzzles.ids import MODES, Puzzle, parse_id
from solver.cells import improve_and_prove, opening_reaches, solve_by_cells
from solver.deal import SOLO_DEAL_MIN, SOLO_TURNS_MAX, Deal, seeded_deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.greedy import greedy_plan
from solver.hints import OptimalLine
from solver.moves import DEPOT
from solver.plan import plan_from_json, plan_to_json, replay
from solver.rules import VARIATIONS, Rules
from solver.shuffle import seed_from_text
from solver.solve import Solution, solve, warm_solution
from solver.warmstart import FIRST_HEURISTIC

SELECTION = "v1"
CHALLENGE = 2025  # the online edition's "score from the future"
GREEDY_SHORTFALL = 800
MAX_CANDIDATES = 12
HEURISTIC_SECONDS = 20.0  # placement of a candidate's beam sequence: proven well within this
GENERATION_SECONDS = 60.0
PROVING_METHODS = ("cells", "cpsat")  # ``prove_target``'s
GENERATION_METHOD = "cells"  # proves more daily puzzles within 60 s than the whole-game model (benchmarks/daily.py)
GRADES = ("easy", "medium", "hard", "expert")
SOLVED_FILE = Path(__file__).resolve().parent / "data" / "solved.jsonl"


@dataclass(frozen=True)
class Signals:
    """What the grade is computed from (scores x100)."""

    greedy: int
    heuristic: int
    target: int
    optimal_first_takes: int | None  # None: not known within the time given
    depot: bool
    white: bool
    blind: bool

    @property
    def points(self) -> int:
        idea = self.target - self.heuristic
        return ((idea >= 100) + (idea >= 300) + (self.optimal_first_takes == 1) + self.depot + self.white
                + self.blind)

    @property
    def grade(self) -> str:
        return GRADES[min(self.points, len(GRADES) - 1)]


@dataclass(frozen=True)
class Solved:
    """A puzzle with its target and best line, as stored in the solved file."""

    id: str
    date: str | None
    target: int
    bound: int
    status: str  # "optimal" | "feasible"
    plan: list  # moves as in the plan file format
    signals: Signals

    @property
    def puzzle(self) -> Puzzle:
        return parse_id(self.id)

    @property
    def difficulty(self) -> str:
        return self.signals.grade

    def to_json(self) -> dict:
        return {"id": self.id, "date": self.date, "target": self.target, "bound": self.bound, "status": self.status,
                "difficulty": self.difficulty, "signals": asdict(self.signals), "plan": self.plan}

    @classmethod
    def from_json(cls, data: dict) -> Solved:
        return cls(data["id"], data.get("date"), data["target"], data["bound"], data["status"], data["plan"],
                   Signals(**data["signals"]))


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ExhibitionError(f"date {text!r} is not a calendar date YYYY-MM-DD") from None


def today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()


def _seed(date: dt.date, what: str = "") -> int:
    return seed_from_text(f"daily:{SELECTION}:{date.isoformat()}{what}")


def rules_of_day(date: dt.date) -> Rules:
    seed = _seed(date, ":rules")
    kind, pick = seed % 7, (seed // 7)
    if kind == 0:
        return Rules(frozenset({VARIATIONS[pick % len(VARIATIONS)]}))
    if kind == 1:
        return Rules(secret_decade=pick % 10)
    return Rules()


def mode_of_day(date: dt.date) -> str:
    return "blind" if date.weekday() == 6 else "open"


def candidate(date: dt.date, k: int) -> Puzzle:
    """The date's k-th candidate puzzle (its first 37 cards are all a solo game sees)."""
    deal = seeded_deal(_seed(date, f":deal:{k}"), rules_of_day(date))
    return Puzzle(Deal(deal.cards[:SOLO_DEAL_MIN], deal.rules), mode_of_day(date))


def screen(puzzle: Puzzle) -> tuple[int, int]:
    """(greedy score, heuristic score) of a candidate: exact values, the same everywhere."""
    game = Game(puzzle.deal)
    greedy = replay(game, greedy_plan(game)).score
    state = game.initial_state()
    warm = warm_solution(game, state, SOLO_TURNS_MAX, None, workers=1, limit=HEURISTIC_SECONDS, heuristic=FIRST_HEURISTIC)
    heuristic = warm.score if warm is not None and warm.status == "optimal" else greedy
    return greedy, heuristic


def choose(date: dt.date) -> tuple[Puzzle, int, int]:
    """The date's puzzle and its screening signals (greedy, heuristic)."""
    best = None
    for k in range(MAX_CANDIDATES):
        puzzle = candidate(date, k)
        greedy, heuristic = screen(puzzle)
        if heuristic > CHALLENGE and greedy <= heuristic - GREEDY_SHORTFALL:
            return puzzle, greedy, heuristic
        if best is None or heuristic > best[2]:
            best = (puzzle, greedy, heuristic)
    return best


def solve_puzzle(puzzle: Puzzle, greedy: int, heuristic: int, time_limit: float, workers: int = 8,
                 progress: bool = False, date: str | None = None) -> Solved:
    """Prove the target; with time left, count the optimal first takes."""
    started = time.perf_counter()
    game = Game(puzzle.deal)
    best = prove_target(game, time_limit, workers, progress)
    return _solved(puzzle, game, best, greedy, heuristic, started + time_limit, workers, date)


def prove_target(game: Game, time_limit: float, workers: int = 8, progress: bool = False,
                 method: str = GENERATION_METHOD) -> Solution:
    """A puzzle's best line and bound within ``time_limit`` seconds, by ``method``: ``cells``
    (the proof by cells, ``solver/cells.py``) or ``cpsat`` (the whole-game model alone)."""
    if method == "cells":
        return solve_by_cells(game, time_limit, workers, progress).solution
    if method == "cpsat":
        return solve(game, time_limit=time_limit, workers=workers, progress=progress)
    raise ValueError(f"unknown proving method {method!r} (expected one of {' '.join(PROVING_METHODS)})")


def prove_further(entry: Solved, time_limit: float, workers: int = 8, progress: bool = False) -> Solved:
    """An entry left unproven, worked on for ``time_limit`` more seconds: the dives and
    the cells (``solver/cells.py: improve_and_prove``) from its best line and bound. The
    entry with a better line, a lower bound or a proof; the same entry if nothing improved."""
    started = time.perf_counter()
    game, known = known_line(entry)
    best = improve_and_prove(game, known, time_limit, workers, progress, ceiling=entry.bound).solution
    if best.score == entry.target and best.bound == entry.bound:
        return entry
    signals = entry.signals
    return _solved(entry.puzzle, game, best, signals.greedy, signals.heuristic, started + time_limit, workers,
                   entry.date)


def known_line(entry: Solved) -> tuple[Game, Solution]:
    """The entry's game, and its best line replayed by the engine with the entry's bound and status."""
    game = Game(entry.puzzle.deal)
    plan = plan_turns(entry)
    outcome = replay(game, plan)
    return game, Solution(outcome.score, entry.bound, entry.status, plan, outcome, 0.0)


def count_further(entry: Solved, time_limit: float, workers: int = 8) -> Solved:
    """A proven entry whose count of optimal first takes is unknown, counted again with
    ``time_limit`` seconds (``optimal_first_takes`` from its optimal line): the entry with
    the count, or the same entry if it is still unknown. Only the *unique* signal and so
    the grade may change, never the deal, target or line."""
    game, best = known_line(entry)
    count = optimal_first_takes(game, best, time.perf_counter() + time_limit, workers)
    if count is None:
        return entry
    return replace(entry, signals=replace(entry.signals, optimal_first_takes=count))


def _solved(puzzle: Puzzle, game: Game, best: Solution, greedy: int, heuristic: int, deadline: float, workers: int,
            date: str | None) -> Solved:
    """The solved-file entry of a puzzle's best line; with time left before ``deadline``, a
    proven one gets its count of optimal first takes."""
    firsts = optimal_first_takes(game, best, deadline, workers) if best.status == "optimal" else None
    played = [t.place.target for t in best.plan]
    signals = Signals(greedy, heuristic, best.score, firsts, DEPOT in played,
                      any(t.take.card.is_white for t in best.plan), puzzle.mode == "blind")
    return Solved(puzzle.id, date, best.score, best.bound, best.status, plan_to_json(best.plan, game.layout)["plan"],
                  signals)


def optimal_first_takes(game: Game, best: Solution, deadline: float, workers: int,
                        reaches: Callable[..., bool | None] = opening_reaches) -> int | None:
    """How many first takes reach the optimum ``best`` (None if the time runs out first):
    each other take asked of ``reaches`` (``solver.cells.opening_reaches``; its signature),
    with the time left before ``deadline``."""
    count = 0
    for take in game.legal_takes(game.initial_state()):
        if take == best.plan[0].take:
            count += 1
            continue
        left = deadline - time.perf_counter()
        if left <= 0.5:
            return None
        answer = reaches(game, take, best.score, left, workers)
        if answer is None:
            return None
        count += answer
    return count


def solved_lines(entries: list[Solved]) -> str:
    """The solved-file format: one JSON object per line."""
    return "".join(json.dumps(e.to_json()) + "\n" for e in entries)


def load_solved(path: Path = SOLVED_FILE) -> dict[str, Solved]:
    """The solved puzzles shipped with the project (and added by ``daily --archive``), by ID."""
    if not path.exists():
        return {}
    out = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                entry = Solved.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise ExhibitionError(f"solved file {path} line {number}: not a solved puzzle ({exc})") from None
            out[entry.id] = entry
    return out


def daily(date: dt.date, time_limit: float = GENERATION_SECONDS, workers: int = 8, progress: bool = False,
          solved: dict[str, Solved] | None = None) -> Solved:
    """The date's puzzle, solved: from the solved file when it is there, else generated."""
    solved = load_solved() if solved is None else solved
    started = time.perf_counter()
    puzzle, screened = puzzle_of(date, solved)
    left = max(1.0, time_limit - (time.perf_counter() - started))
    return target_of(puzzle, left, workers, solved, screened, date.isoformat(), progress)


def puzzle_of(date: dt.date, solved: dict[str, Solved] | None = None) -> tuple[Puzzle, tuple[int, int] | None]:
    """The date's puzzle (from the solved file, else chosen now) and, if chosen now, its
    screening signals."""
    solved = load_solved() if solved is None else solved
    for entry in solved.values():
        if entry.date == date.isoformat():
            return entry.puzzle, None
    puzzle, greedy, heuristic = choose(date)
    return puzzle, (greedy, heuristic)


def target_of(puzzle: Puzzle, time_limit: float, workers: int = 8, solved: dict[str, Solved] | None = None,
              screened: tuple[int, int] | None = None, date: str | None = None, progress: bool = False) -> Solved:
    """A puzzle's target: from the solved file, else solved now."""
    solved = load_solved() if solved is None else solved
    if puzzle.id in solved:
        return solved[puzzle.id]
    started = time.perf_counter()
    greedy, heuristic = screened or screen(puzzle)
    left = max(1.0, time_limit - (time.perf_counter() - started))
    return solve_puzzle(puzzle, greedy, heuristic, left, workers, progress, date)


def archive_lines(entries: list[Solved]) -> list[str]:
    """The archive format: one puzzle ID per line; ``#`` starts a comment (here: the date,
    target and grade of the next ID)."""
    lines = [f"# exhibition daily puzzles, selection {SELECTION}: one puzzle ID per line"]
    for e in entries:
        status = "" if e.status == "optimal" else f" (not proven, bound {e.bound})"
        lines.append(f"# {e.date}  target {e.target}{status}  {e.difficulty}")
        lines.append(e.id)
    return lines


def read_archive(text: str) -> list[Puzzle]:
    """The puzzles of an archive text (comments and blank lines skipped); errors name the line."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0].strip()
        if not code:
            continue
        try:
            out.append(parse_id(code))
        except ExhibitionError as exc:
            raise ExhibitionError(f"archive line {number}: {exc}") from None
    return out


def plan_turns(entry: Solved):
    """The best line of a solved puzzle as engine turns."""
    return plan_from_json({"plan": entry.plan}, Game(entry.puzzle.deal).layout)


class Optimum(NamedTuple):
    """A deal's optimum as ``review`` and ``play`` show it: the score, ``optimal`` or
    ``feasible``, the bound, and the line if proven (hints value its moves exactly)."""

    score: int
    status: str
    bound: int
    line: OptimalLine | None

    def at_least(self, reached: int) -> Optimum:
        """The optimum never below ``reached``, the score of a game played on the deal (which
        an unproven best may fall short of)."""
        return self._replace(score=max(self.score, reached))


def deal_optimum(game: Game, time_limit: float, reached: int = 0) -> Optimum:
    """The optimum of ``game``'s deal: a solved puzzle's stored target and line, else the
    proof by cells within ``time_limit`` (``prove_target``), never below ``reached``
    (``Optimum.at_least``)."""
    line = proven_line(game.deal)
    if line is not None:
        return Optimum(line[1], "optimal", line[1], line)
    best = prove_target(game, time_limit)
    proven = best.status == "optimal"
    return Optimum(best.score, best.status, best.bound, (best.plan, best.score) if proven else None).at_least(reached)


def proven_line(deal: Deal, solved: dict[str, Solved] | None = None) -> OptimalLine | None:
    """The best line and target of the solved puzzle with this deal and rules (in either
    mode), if its target is proven optimal; else None. Hints value the line's moves exactly."""
    solved = load_solved() if solved is None else solved
    for mode in MODES:
        entry = solved.get(Puzzle(deal, mode).id)
        if entry is not None and entry.status == "optimal":
            return plan_turns(entry), entry.target
    return None
