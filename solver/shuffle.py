"""A shuffle that gives the same order on every machine and in every later version.

Python's ``random`` may change its algorithms between versions; daily puzzles and
``--seed`` deals must not. So we use SplitMix64 (a tiny, well-known generator) and
a plain Fisher-Yates shuffle with rejection sampling (no modulo bias).
"""

from __future__ import annotations

import hashlib
from typing import Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, 64-bit outputs."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next()
            if value < limit:
                return value % n


def seed_from_text(text: str) -> int:
    """Any text is a valid seed (a date, a name): its SHA-256, first 8 bytes."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by SplitMix64(seed)."""
    out = list(items)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
