"""Batch runs: the optimal solo scores of many seeded deals, solved on Dask distributed
(a local cluster of worker processes by default, or a running scheduler's cluster), and
the distribution of the scores."""

from __future__ import annotations

import math
import re
import statistics
from typing import Callable, Iterable

from puzzles.daily import prove_target
from solver.deal import seeded_deal
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.rules import Rules

QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
MAX_SEEDS = 1_000_000  # far beyond any batch this machine finishes; stops a typo from filling memory


def parse_seeds(text: str) -> list[int]:
    """``1-1000``, ``5``, or a comma-separated mix (``1-10,42``), in the order given; at
    most ``MAX_SEEDS`` in all."""
    seeds: list[int] = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not match:
            raise ExhibitionError(f"--seeds: {part.strip()!r} is not N or N-M")
        first, last = int(match[1]), int(match[2] or match[1])
        if last < first:
            raise ExhibitionError(f"--seeds: {part.strip()!r} ends before it starts")
        if len(seeds) + last - first + 1 > MAX_SEEDS:
            raise ExhibitionError(f"--seeds: {part.strip()!r} makes more than {MAX_SEEDS} seeds in one batch")
        seeds.extend(range(first, last + 1))
    return seeds


def solve_seed(seed: int, rules: dict, time_limit: float, cp_workers: int, method: str = "cells") -> dict:
    """One task: the seeded deal solved by ``method`` (``prove_target``'s: the proof by cells,
    or the whole-game model alone) in a Dask worker process."""
    game = Game(seeded_deal(seed, Rules.from_json(rules)))
    found = prove_target(game, time_limit, cp_workers, method=method)
    return {"seed": seed, "score": found.score, "bound": found.bound, "status": found.status,
            "seconds": round(found.seconds, 3)}


def run_batch(seeds: Iterable[int], rules: Rules, time_limit: float, workers: int, scheduler: str | None,
              cp_workers: int, on_result: Callable[[dict], None], method: str = "cells") -> list[dict]:
    """Solve every seed on Dask by ``method`` (``solve_seed``); ``on_result`` sees each result
    as it arrives."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="10s")
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(solve_seed, list(seeds), rules=rules.to_json(), time_limit=time_limit,
                             cp_workers=cp_workers, method=method, pure=False)
        results = []
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            on_result(result)
        return sorted(results, key=lambda r: r["seed"])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summary(results: list[dict]) -> dict:
    scores = [r["score"] for r in results]
    return {"deals": len(results), "proven": sum(r["status"] == "optimal" for r in results),
            "mean": round(statistics.mean(scores), 1),
            "quantiles": {f"{int(100 * q)}%": quantile(scores, q) for q in QUANTILES},
            "above_2025": sum(s > 2025 for s in scores)}


def histogram(scores: list[int], width: int = 50, step: int = 100) -> list[str]:
    """A text histogram of the scores in bins of ``step`` points."""
    low, high = min(scores) // step * step, max(scores) // step * step
    bins = {b: 0 for b in range(low, high + step, step)}
    for s in scores:
        bins[s // step * step] += 1
    most = max(bins.values())
    return [f"{b:>5}-{b + step - 1:<5} {'#' * max(1 if n else 0, round(width * n / most)):<{width}} {n}"
            for b, n in bins.items()]
