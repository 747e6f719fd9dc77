"""``exhibition daily`` and ``exhibition check``: the puzzle of a date, and a player's answer."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Callable

import click

from cli.common import BadInput, emit_json, format_option, output_file, positive_seconds, write_atomically
from cli.render import breakdown_text, hall_text, market_table
from cli.svg import write_hall_svg
from puzzles.daily import (SOLVED_FILE, Solved, archive_lines, count_further, daily, load_solved, parse_date,
                           plan_turns, prove_further, puzzle_of, solved_lines, target_of, today)
from puzzles.ids import parse_id
from solver.deck import default_deck
from solver.engine import Game
from solver.notation import format_rules
from solver.plan import load_plan, replay

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _target_text(entry: Solved) -> str:
    if entry.status == "optimal":
        return f"{entry.target} (proven optimum)"
    return f"{entry.target} (best found; not proven, bound {entry.bound})"


def _puzzle_json(entry: Solved, date: str | None, reveal: bool) -> dict:
    puzzle = entry.puzzle
    out = {"date": date, "id": entry.id, "deal": [c.code for c in puzzle.deal.cards], "target": entry.target,
           "difficulty": entry.difficulty, "mode": puzzle.mode, "rules": puzzle.deal.rules.to_json(),
           "status": entry.status, "bound": entry.bound, "signals": entry.to_json()["signals"]}
    if reveal:
        out["plan"] = entry.plan
    return out


def show_puzzle(entry: Solved, date: str | None, fmt: str) -> None:
    puzzle = entry.puzzle
    game = Game(puzzle.deal)
    click.echo(f"Exhibition: 20th Century - daily puzzle {date or ''}".rstrip())
    click.echo(f"rules {format_rules(puzzle.deal.rules)} · mode {puzzle.mode} · difficulty {entry.difficulty}")
    click.echo(f"target {_target_text(entry)}   (the challenge: above 2025)\n")
    click.echo(market_table(game.initial_state(), default_deck(), fmt))
    if puzzle.mode == "open":
        click.echo("\nstock, top first: " + " ".join(c.code for c in puzzle.deal.stock[:19]))
    else:
        click.echo("\nblind: the stock order is hidden, as in a real game")
    click.echo(f"\nid {entry.id}")


def reveal_solution(entry: Solved, fmt: str, svg: str | None) -> None:
    game = Game(entry.puzzle.deal)
    outcome = replay(game, plan_turns(entry))
    if outcome.score != entry.target:
        raise BadInput(f"the stored line of {entry.id} scores {outcome.score}, not its target {entry.target}")
    if svg:
        write_hall_svg(svg, game, outcome.final, outcome.breakdown, f"Daily puzzle: best line, {outcome.score}")
    if fmt == "json":
        return
    click.echo("\nbest line:")
    for number, move in enumerate(entry.plan, 1):
        to = f">{move['to']}" if "to" in move else ""
        declare = f" as {move['declare']['continent']}{move['declare'].get('year', '')}" if "declare" in move else ""
        click.echo(f"{number:>2}. take {move['take']}{to} -> {move['place']}{declare}")
    click.echo()
    click.echo(hall_text(game, outcome.final))
    click.echo()
    click.echo(breakdown_text(outcome.breakdown, fmt))


def _dates(start: str, stop: str) -> list[dt.date]:
    first, last = parse_date(start), parse_date(stop)
    if last < first:
        raise BadInput(f"--archive {start} {stop}: the range ends before it starts")
    return [first + dt.timedelta(days=k) for k in range((last - first).days + 1)]


@click.command(name="daily")
@click.option("--date", "date_text", help="YYYY-MM-DD (default: today in UTC).")
@click.option("--reveal", is_flag=True, help="Show the best line too.")
@click.option("--time-limit", type=float, default=60.0, show_default=True, callback=positive_seconds,
              help="Seconds to generate and prove a puzzle that is not in the solved file.")
@click.option("--workers", type=click.IntRange(1, 64), default=8, show_default=True, help="CP-SAT workers.")
@click.option("--archive", nargs=2, metavar="FROM TO", help="Write the puzzles of a range of dates (archive format).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), callback=output_file, help="--archive: the archive file (default: stdout).")
@click.option("--solutions", "solutions_path", type=click.Path(dir_okay=False), callback=output_file,
              help="--archive: also write each solved puzzle as a JSON line (the solved-file format). "
                   "--prove-open, --count-open: the solved file to work on (default: the shipped one).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), callback=output_file, help="With --reveal: draw the best line's hall as SVG.")
@click.option("--prove-open", is_flag=True,
              help="Maintenance: work --time-limit seconds more on each puzzle of the solved file whose target is "
                   "not proven (dives, then the cells, from its best line) and rewrite the file with what improved.")
@click.option("--count-open", is_flag=True,
              help="Maintenance: give --time-limit seconds to each proven puzzle of the solved file whose count of "
                   "optimal first takes is unknown (the 'unique' grade signal) and rewrite the file with what was "
                   "counted.")
@click.option("--since", "since_text", metavar="YYYY-MM-DD",
              help="--prove-open, --count-open: only the puzzles of this date and later (the work goes in file order, "
                   "so a run stopped early is taken up from where it stopped).")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@format_option()
def daily_command(date_text: str | None, reveal: bool, time_limit: float, workers: int, archive: tuple[str, str] | None,
                  out_path: str | None, solutions_path: str | None, svg_path: str | None, prove_open: bool,
                  count_open: bool, since_text: str | None, quiet: bool, fmt: str) -> None:
    """The daily solo puzzle of a UTC date: market, rules, difficulty and proven target."""
    if svg_path and not reveal:
        raise BadInput("--svg draws the answer: give --reveal too")
    if since_text and not (prove_open or count_open):
        raise BadInput("--since picks the solved puzzles to work on: give --prove-open or --count-open too")
    if prove_open or count_open:
        flag = "--prove-open" if prove_open else "--count-open"
        if date_text or reveal or archive or (prove_open and count_open):
            raise BadInput(f"{flag} works on the solved file: no --date, --reveal, --archive or other maintenance "
                           "flag with it")
        path = Path(solutions_path) if solutions_path else SOLVED_FILE
        since = parse_date(since_text).isoformat() if since_text else None
        if prove_open:
            _work_on_solved(path, since, lambda e: e.status != "optimal",
                            lambda e: prove_further(e, time_limit, workers),
                            lambda e, b: f"{e.target}/{e.bound} -> {b.target}/{b.bound} {b.status}", quiet)
        else:
            _work_on_solved(path, since, lambda e: e.status == "optimal" and e.signals.optimal_first_takes is None,
                            lambda e: count_further(e, time_limit, workers),
                            lambda e, b: f"optimal first takes: {b.signals.optimal_first_takes or 'unknown'}, "
                                         f"{e.difficulty} -> {b.difficulty}", quiet)
        return
    if archive:
        if date_text or reveal:
            raise BadInput("--archive writes a range of dates: no --date or --reveal with it")
        entries = []
        for date in _dates(*archive):
            entry = daily(date, time_limit, workers)
            entries.append(entry)
            if not quiet:
                click.echo(f"  {date}  {entry.target} {entry.status}  {entry.difficulty}", err=True)
        text = "\n".join(archive_lines(entries)) + "\n"
        if out_path:
            write_atomically(out_path, text)
        else:
            click.echo(text, nl=False)
        if solutions_path:
            write_atomically(solutions_path, solved_lines(entries))
        return
    date = parse_date(date_text) if date_text else today()
    entry = daily(date, time_limit, workers, progress=not quiet)
    if fmt == "json":
        if svg_path:
            reveal_solution(entry, fmt, svg_path)
        emit_json(_puzzle_json(entry, date.isoformat(), reveal))
        return
    show_puzzle(entry, date.isoformat(), fmt)
    if reveal:
        reveal_solution(entry, fmt, svg_path)


def _work_on_solved(path: Path, since: str | None, wanted: Callable[[Solved], bool],
                    work: Callable[[Solved], Solved], describe: Callable[[Solved, Solved], str], quiet: bool) -> None:
    """``daily --prove-open`` and ``--count-open``: each ``wanted`` entry of the solved file
    ``path`` dated ``since`` (ISO) or later, or any date with None, is worked on (``work``:
    the entry improved, or the same entry); the file is rewritten (whole or not at all)
    after each one that improved, so an interrupted run keeps what it found.
    ``describe``: the progress line of an entry and its outcome."""
    if not path.exists():
        raise BadInput(f"solved file {path} does not exist")
    entries = list(load_solved(path).values())
    for number, entry in enumerate(entries):
        if (since is not None and (entry.date is None or entry.date < since)) or not wanted(entry):
            continue
        better = work(entry)
        if not quiet:
            click.echo(f"  {entry.date}  {describe(entry, better)}", err=True)
        if better is not entry:
            entries[number] = better
            write_atomically(path, solved_lines(entries))


@click.command(name="check")
@click.option("--puzzle", "puzzle_text", required=True, help="A puzzle ID, or a date (YYYY-MM-DD) for its daily puzzle.")
@click.option("--plan", "plan_path", required=True, type=click.Path(dir_okay=False), help="The player's plan file.")
@click.option("--time-limit", type=float, default=60.0, show_default=True, callback=positive_seconds,
              help="Seconds to prove the target of a puzzle that is not in the solved file.")
@click.option("--workers", type=click.IntRange(1, 64), default=8, show_default=True, help="CP-SAT workers.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), callback=output_file, help="Draw the player's final hall as SVG.")
@format_option()
def check_command(puzzle_text: str, plan_path: str, time_limit: float, workers: int, svg_path: str | None,
                  fmt: str) -> None:
    """Replay a player's answer to a puzzle; its score against the target."""
    text = puzzle_text.strip()
    date = parse_date(text).isoformat() if DATE.match(text) else None
    solved = load_solved()
    puzzle, screened = puzzle_of(parse_date(date), solved) if date else (parse_id(text), None)
    game = Game(puzzle.deal)
    outcome = replay(game, load_plan(plan_path, game.layout))  # a bad plan is reported before any solving
    entry = target_of(puzzle, time_limit, workers, solved, screened, date)
    optimal = outcome.score >= entry.bound
    percent = round(100 * outcome.score / entry.target, 1) if entry.target else None
    if svg_path:
        write_hall_svg(svg_path, game, outcome.final, outcome.breakdown, f"Your hall: {outcome.score} of {entry.target}")
    if fmt == "json":
        emit_json({"score": outcome.score, "target": entry.target, "optimal": optimal, "percent": percent,
                   "target_status": entry.status, "id": entry.id, "date": date,
                   "breakdown": outcome.breakdown.as_dict(), "turns": outcome.turns})
        return
    click.echo(hall_text(game, outcome.final))
    click.echo()
    click.echo(breakdown_text(outcome.breakdown, fmt))
    verdict = "optimal!" if optimal else f"{entry.target - outcome.score} short of the target"
    click.echo(f"\nscore {outcome.score} / target {_target_text(entry)}: {percent}% - {verdict}")
    if outcome.score > 2025:
        click.echo("a score from the future: above 2025")
