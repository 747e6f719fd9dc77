"""Batch runs on Dask distributed: the speed-up from 1 to 2 local worker processes, and how
many deals each method proves, the batch command's default (the proof by cells, 8 CP-SAT
workers a task) beside its earlier one (the whole-game model, 1 CP-SAT worker a task).

    python benchmarks/batch.py                # 8 deals, 10 s each: each method with 1, then 2 workers
    python benchmarks/batch.py --deals 12 --limit 30

Each deal is solved within a fixed time limit; a proof that ends sooner frees its worker for
the next deal. The wall time of each run includes starting the cluster.
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

CONFIGS = (("cells", 8), ("cpsat", 1))  # (method, CP-SAT workers a task): the default, then the baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--limit", type=float, default=10.0)
    args = parser.parse_args()
    seeds = list(range(1, args.deals + 1))
    rows = []
    for method, cp_workers in CONFIGS:
        walls = {}
        for workers in (1, 2):
            started = time.perf_counter()
            results = run_batch(seeds, Rules(), args.limit, workers, None, cp_workers, lambda r: None, method)
            walls[workers] = time.perf_counter() - started
            rows.append([method, cp_workers, workers, f"{walls[workers]:.1f}",
                         f"{sum(r['seconds'] for r in results):.1f}",
                         f"{sum(r['status'] == 'optimal' for r in results)}/{len(results)}",
                         f"{sum(r['score'] for r in results) / len(results):.1f}", f"{walls[1] / walls[workers]:.2f}"])
    print(tabulate(rows, headers=["method", "CP-SAT workers", "workers", "wall s", "sum of solve s", "proven",
                                  "mean score", "speed-up vs 1"], tablefmt="github"))


if __name__ == "__main__":
    main()
