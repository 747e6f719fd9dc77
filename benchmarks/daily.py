"""Time to generate a daily puzzle, proof included, per proving method, in the same run.

    python benchmarks/daily.py                                    # 2026-12-27 .. 2027-01-09
    python benchmarks/daily.py --from 2026-11-29 --to 2026-12-05 --methods cells --limit 60

For each date: the selection of the day's puzzle (``puzzles.daily.choose``: its candidates
screened, the same for every method, timed once), then the target proven by each method
with the time the selection left (``puzzles.daily.prove_target``, as generation does before
it counts the optimal first takes with any time left). Prints per date the
target, bound and total seconds to a proof, and per method the median and worst total and
how many dates were proven within the limit. An unproven date counts as ``inf``. The
shipped solved file is not read or written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from puzzles.daily import choose, parse_date, prove_target  # noqa: E402
from solver.engine import Game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="first", default="2026-12-27")
    parser.add_argument("--to", dest="last", default="2027-01-09")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per date, selection included")
    parser.add_argument("--methods", default="cpsat,cells")
    args = parser.parse_args()
    first, last = parse_date(args.first), parse_date(args.last)
    methods = args.methods.split(",")
    dates = [first + dt.timedelta(days=k) for k in range((last - first).days + 1)]
    totals: dict[str, list[float]] = {m: [] for m in methods}
    rows = []
    for date in dates:
        started = time.perf_counter()
        puzzle, _, _ = choose(date)
        selection = time.perf_counter() - started
        row = [date.isoformat(), f"{selection:.1f}"]
        game = Game(puzzle.deal)
        for method in methods:
            begun = time.perf_counter()
            best = prove_target(game, max(1.0, args.limit - selection), method=method)
            total = selection + time.perf_counter() - begun
            proven = best.status == "optimal" and total <= args.limit
            totals[method].append(total if proven else math.inf)
            row += [best.score, best.bound, f"{total:.1f}" if proven else "-"]
            print(f"{date} {method}: {best.score}/{best.bound} {best.status} {total:.1f}s", file=sys.stderr, flush=True)
        rows.append(row)
    headers = ["date", "selection s"] + [f"{m} {x}" for m in methods for x in ("target", "bound", "s")]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print()
    summary = [[m, f"{statistics.median(ts):.2f}", f"{max(ts):.2f}", f"{sum(math.isfinite(t) for t in ts)}/{len(ts)}"]
               for m, ts in totals.items()]
    print(tabulate(summary, headers=["method", "median s", "worst s", f"proven <= {args.limit:g} s"],
                   tablefmt="github"))


if __name__ == "__main__":
    main()
