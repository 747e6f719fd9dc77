"""Speed-up of batch runs on Dask distributed from 1 to 2 local worker processes.

    python benchmarks/batch.py                # 8 deals, 5 s each, 1 then 2 workers
    python benchmarks/batch.py --deals 16 --limit 10

Each deal is solved with a fixed time limit and one CP-SAT thread, so the work per deal is
about the same in both runs; the wall time of each run includes starting the cluster.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from puzzles.batch import run_batch  # noqa: E402
from solver.rules import Rules  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--limit", type=float, default=5.0)
    args = parser.parse_args()
    seeds = list(range(1, args.deals + 1))
    rows, walls = [], {}
    for workers in (1, 2):
        started = time.perf_counter()
        results = run_batch(seeds, Rules(), args.limit, workers, None, 1, lambda r: None)
        walls[workers] = time.perf_counter() - started
        rows.append([workers, f"{walls[workers]:.1f}", f"{sum(r['seconds'] for r in results):.1f}",
                     f"{walls[1] / walls[workers]:.2f}"])
    print(tabulate(rows, headers=["workers", "wall s", "sum of solve s", "speed-up vs 1"], tablefmt="github"))


if __name__ == "__main__":
    main()
