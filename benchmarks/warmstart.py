"""The warm start (``solver/warmstart.py``): how good a line it finds and how fast, beside its
first version (``FIRST_HEURISTIC``, frozen for the daily selection) in the same run.

    python benchmarks/warmstart.py                     # 10 deals, limits 0.4 s and 2 s
    python benchmarks/warmstart.py --deals 30 --limits 0.2,0.4,0.8,2

Each line is a real game: the beam's take sequences placed exactly by CP-SAT and replayed
by the engine. Scores are compared with the best score any setting found on that deal
(and with a proven optimum where ``--optimum-limit`` is given and the solve proves it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from solver.deal import SOLO_TURNS_MAX, seeded_deal  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.solve import solve, warm_solution  # noqa: E402
from solver.warmstart import FIRST_HEURISTIC, HEURISTIC  # noqa: E402

SEEDS = list(range(1, 31))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--limits", default="0.4,2", help="seconds for the current warm start, comma-separated")
    parser.add_argument("--optimum-limit", type=float, default=0.0, help="also solve each deal this long (0: no)")
    args = parser.parse_args()
    limits = [float(x) for x in args.limits.split(",")]
    settings = [("first", FIRST_HEURISTIC, 20.0)] + [(f"current {x:g}s", HEURISTIC, x) for x in limits]
    scores = {name: [] for name, _, _ in settings}
    seconds = {name: [] for name, _, _ in settings}
    rows, best = [], []
    for seed in SEEDS[: args.deals]:
        game = Game(seeded_deal(seed))
        row = [seed]
        for name, heuristic, limit in settings:
            began = time.perf_counter()
            found = warm_solution(game, game.initial_state(), SOLO_TURNS_MAX, None, workers=2, limit=limit,
                                  heuristic=heuristic)
            seconds[name].append(time.perf_counter() - began)
            scores[name].append(found.score if found is not None else None)  # None: no line placed in time
            row += [scores[name][-1] if found is not None else "-", f"{seconds[name][-1]:.2f}"]
        reference = max(scores[name][-1] or 0 for name, _, _ in settings)
        if args.optimum_limit > 0:
            solved = solve(game, time_limit=args.optimum_limit)
            reference = max(reference, solved.score)
            row.append(f"{solved.score}{'' if solved.status == 'optimal' else '+'}")
        best.append(reference)
        rows.append(row)
        print(*row, flush=True)
    headers = ["seed"] + [h for name, _, _ in settings for h in (name, "s")]
    if args.optimum_limit > 0:
        headers.append("optimum (+: best found)")
    print(tabulate(rows, headers, tablefmt="github"))
    print()
    summary = []
    for name, _, _ in settings:
        found = [(s, b) for s, b in zip(scores[name], best) if s is not None]
        ratio = statistics.mean(s / b for s, b in found) if found else 0.0
        summary.append([name, f"{len(found)}/{len(best)}", f"{statistics.mean(s for s, _ in found):.0f}" if found else "-",
                        f"{100 * ratio:.1f}%", f"{statistics.median(seconds[name]):.2f}", f"{max(seconds[name]):.2f}"])
    print(tabulate(summary, ["setting", "lines placed", "mean score", "mean % of best", "median s", "max s"],
                   tablefmt="github"))


if __name__ == "__main__":
    main()
