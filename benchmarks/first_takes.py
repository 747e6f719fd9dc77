"""Time to count a daily puzzle's optimal first takes (its *unique* signal), per method, in
the same run.

    python benchmarks/first_takes.py                                  # 12 shipped dates, 60 s each
    python benchmarks/first_takes.py --dates 24 --seed 2 --limit 60 --methods cells,cpsat

The dates are drawn (``--seed``) from the proven ones of the shipped solved file. For each,
``puzzles.daily.optimal_first_takes`` counts the first takes that reach its optimum, from
its optimal line, within ``--limit`` seconds, asking each other take of one method:
``cells`` (``solver.cells.opening_reaches``: dives and cells with the take fixed, what
generation asks) or ``cpsat`` (the whole-game model with the take fixed and the optimum
required, what generation asked up to the fortieth session). Prints per date the count and
seconds of each method (``-``: not settled in time), then per method how many counts
settled, the median and worst seconds (an unsettled count is ``inf``), and how many dates
the methods disagree on where both settled (a disagreement is a bug). In generation the
count only gets the time the proof left of the 60 s.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from puzzles.daily import known_line, load_solved, optimal_first_takes  # noqa: E402
from solver.cells import opening_reaches  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.errors import ExhibitionError  # noqa: E402
from solver.moves import Take  # noqa: E402
from solver.solve import solve  # noqa: E402


def cpsat_reaches(game: Game, opening: Take, goal: int, time_limit: float, workers: int) -> bool | None:
    """``opening_reaches`` by the whole-game model alone, the take fixed and ``goal`` required."""
    try:
        found = solve(game, time_limit=time_limit, prefix=[opening], at_least=goal, workers=workers)
    except ExhibitionError:  # nothing either way within the time
        return None
    return found is not None


METHODS = {"cells": opening_reaches, "cpsat": cpsat_reaches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dates", type=int, default=12, help="how many shipped dates")
    parser.add_argument("--seed", type=int, default=1, help="which dates: a shuffle of the proven ones")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per date and method")
    parser.add_argument("--methods", default="cells,cpsat")
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    methods = args.methods.split(",")
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        parser.error(f"unknown method {unknown[0]!r} (known: {', '.join(METHODS)})")
    entries = sorted((e for e in load_solved().values() if e.status == "optimal"), key=lambda e: e.date)
    random.Random(args.seed).shuffle(entries)
    totals: dict[str, list[float]] = {m: [] for m in methods}
    disagreements = 0
    rows = []
    for entry in entries[: args.dates]:
        game, best = known_line(entry)
        row = [entry.date, entry.target, len(game.legal_takes(game.initial_state()))]
        counts = []
        for method in methods:
            started = time.perf_counter()
            count = optimal_first_takes(game, best, started + args.limit, args.workers, reaches=METHODS[method])
            seconds = time.perf_counter() - started
            totals[method].append(seconds if count is not None else math.inf)
            counts.append(count)
            row += ["-" if count is None else count, f"{seconds:.1f}"]
            print(f"{entry.date} {method}: {count} {seconds:.1f}s", file=sys.stderr, flush=True)
        settled = [c for c in counts if c is not None]
        disagreements += len(set(settled)) > 1
        rows.append(row)
    headers = ["date", "target", "first takes"] + [f"{m} {x}" for m in methods for x in ("count", "s")]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print()
    summary = [[m, f"{sum(math.isfinite(t) for t in ts)}/{len(ts)}", f"{statistics.median(ts):.2f}",
                f"{max(ts):.2f}"] for m, ts in totals.items()]
    print(tabulate(summary, headers=["method", f"settled <= {args.limit:g} s", "median s", "worst s"],
                   tablefmt="github"))
    print(f"\ndates where the settled counts disagree: {disagreements}")


if __name__ == "__main__":
    main()
