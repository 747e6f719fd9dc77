"""The cells' refutations, replayed: the same cells asked of the whole model alone, built
for each cell (baseline), of the whole model alone, copied from one built for the deal,
and as the proof by cells asks them (the relaxation without the vehicle's walk first, both
models copied), in the same run.

    python benchmarks/cells.py                    # seeds 2, 3, 4, 6, 9, 12, 13, 15; 60 s runs
    python benchmarks/cells.py --seeds 3,9 --limit 30

A proof's time moves from run to run with the plans CP-SAT happens to find (a late optimum
leaves more cells to refute), so two codes compared by whole runs differ by the luck of
each run. Here one run of ``solve_by_cells`` per deal records the cells it tries (each
with its target and time limit); the three ways then answer exactly those cells, one after
the other, and the totals compare the refutation machinery alone. Prints per deal the cells,
how many the relaxation refutes, the seconds each way and their ratios, then the totals;
stops with an error if the relaxation refutes a cell where the whole model finds a plan.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

import solver.cells as cells  # noqa: E402
from solver.deal import seeded_deal  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.model import build_solo_model  # noqa: E402

SEEDS = "2,3,4,6,9,12,13,15"  # proven within 60 s in most runs: every cell tried is part of a proof
WORKERS = 8  # as the proof by cells runs


def recorded_cells(game: Game, limit: float) -> list[tuple[cells.Cell, int, float | None]]:
    """The (cell, target, time limit) of every cell that one ``solve_by_cells`` run tries."""
    tried = []
    try_cell = cells._try_cell

    def recording(game_, models, cell, target, cell_limit, workers):
        tried.append((cell, target, cell_limit))
        return try_cell(game_, models, cell, target, cell_limit, workers)

    cells._try_cell = recording
    try:
        cells.solve_by_cells(game, limit, WORKERS)
    finally:
        cells._try_cell = try_cell
    return tried


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=SEEDS, help=f"comma-separated deal seeds (default {SEEDS})")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds of each recording run")
    args = parser.parse_args()
    rows, totals = [], [0.0, 0.0, 0.0]
    for seed in (int(s) for s in args.seeds.split(",")):
        game = Game(seeded_deal(seed))
        tried = recorded_cells(game, args.limit)
        models = cells._CellModels(game, build_solo_model(game))
        seconds, by_relaxation = [0.0, 0.0, 0.0], 0
        for cell, target, limit in tried:
            started = time.perf_counter()
            baseline, _ = cells._ask_whole_model(game, None, cell, target, limit, WORKERS)
            seconds[0] += time.perf_counter() - started
            started = time.perf_counter()
            cells._ask_whole_model(game, models.whole, cell, target, limit, WORKERS)
            seconds[1] += time.perf_counter() - started
            started = time.perf_counter()
            cells._try_cell(game, models, cell, target, limit, WORKERS)
            seconds[2] += time.perf_counter() - started
            refuted = cells._ask_without_walk(models.for_cell(cell, target)[1], cell, target, cells.RELAXED_SECONDS,
                                              WORKERS).refuted  # untimed
            if refuted and baseline == "better":
                sys.exit(f"seed {seed}: the relaxation refuted [{cell}] at {target},"
                         " where the whole model found a plan")
            by_relaxation += refuted
        print(f"seed {seed}: {len(tried)} cells, {seconds[0]:.1f} s, {seconds[1]:.1f} s, {seconds[2]:.1f} s",
              file=sys.stderr, flush=True)
        rows.append([seed, len(tried), by_relaxation, *(f"{s:.1f}" for s in seconds),
                     f"{seconds[1] / seconds[0]:.2f}", f"{seconds[2] / seconds[0]:.2f}"])
        totals = [t + s for t, s in zip(totals, seconds)]
    print(tabulate(rows, headers=["seed", "cells", "refuted by the relaxation", "baseline s", "copied s", "cells s",
                                  "copied / baseline", "cells / baseline"], tablefmt="github"))
    print(f"\ntotal: baseline {totals[0]:.1f} s, whole model copied {totals[1]:.1f} s "
          f"(ratio {totals[1] / totals[0]:.2f}), cells {totals[2]:.1f} s (ratio {totals[2] / totals[0]:.2f});"
          f" median ratios {statistics.median(float(r[-2]) for r in rows):.2f} and"
          f" {statistics.median(float(r[-1]) for r in rows):.2f}")


if __name__ == "__main__":
    main()
