"""The rules in force: the hall layout, variation showcases, secret decade, rule options.

The hall is five showcases of 6, 4, 3, 2 and 1 spots (RULES.md section 4). A variation
showcase lies on top of the base showcase it covers and takes its place and name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from solver.errors import RulesError


class Showcase(Enum):
    """Every showcase kind. Its value is its name; position, size and variation flag follow."""

    GENERAL = "GENERAL"
    ERA = "ERA"
    CONTINENT = "CONTINENT"
    GAP = "GAP"
    MID = "MID"
    SPREAD_THE_YEARS = "SPREAD_THE_YEARS"
    LINKS = "LINKS"
    SHORT_ERA = "SHORT_ERA"
    ONE_DECADE = "ONE_DECADE"
    ANTIQUITY = "ANTIQUITY"
    UNIQUE_DECADES = "UNIQUE_DECADES"

    @property
    def position(self) -> int:
        """Index of the base showcase it is (or covers) in the hall: 0 GENERAL ... 4 MID."""
        return _POSITION[self.value]

    @property
    def size(self) -> int:
        return _SIZES[self.position]

    @property
    def is_variation(self) -> bool:
        return self.value not in _BASE_NAMES

    @classmethod
    def parse(cls, text: str) -> Showcase:
        """A showcase by its name, in any case, with spaces or hyphens for the underscores
        (``short era`` as RULES.md writes it)."""
        try:
            return cls[re.sub(r"[\s-]+", "_", text.strip()).upper()]
        except KeyError:
            names = " ".join(s.name for s in cls)
            raise RulesError(f"unknown showcase {text!r} (expected one of {names})") from None


_BASE_NAMES = ("GENERAL", "ERA", "CONTINENT", "GAP", "MID")
_SIZES = (6, 4, 3, 2, 1)
_POSITION = {
    **{name: i for i, name in enumerate(_BASE_NAMES)},
    "SPREAD_THE_YEARS": 2, "LINKS": 2, "SHORT_ERA": 1, "ONE_DECADE": 1, "ANTIQUITY": 3, "UNIQUE_DECADES": 3,
}
BASE_LAYOUT: tuple[Showcase, ...] = (Showcase.GENERAL, Showcase.ERA, Showcase.CONTINENT, Showcase.GAP, Showcase.MID)
VARIATIONS: tuple[Showcase, ...] = tuple(s for s in Showcase if s.is_variation)
HALL_SIZE = sum(s.size for s in BASE_LAYOUT)  # 16
DEPOT_SIZE = 3
MARKET_COLUMNS = 6
COLUMN_SIZE = 3
MARKET_SIZE = MARKET_COLUMNS * COLUMN_SIZE  # 18
MAX_PLAYERS = 5

# UNIQUE DECADES: the decades allowed per number of players (0 = 1900s ... 9 = 1990s).
UNIQUE_DECADES_ALLOWED = {5: tuple(range(10)), 4: tuple(range(1, 9)), 3: tuple(range(2, 8)), 2: tuple(range(3, 7))}
SOLO_UNIQUE_DECADES_DEFAULT = (4, 5)  # Decision (RULES.md section 7): 1940s and 1950s


@dataclass(frozen=True)
class Rules:
    """The rules in force for a game. Defaults are the base rules of RULES.md."""

    variations: frozenset[Showcase] = frozenset()
    secret_decade: int | None = None
    depot_full_ends_game: bool = False
    solo_unique_decades: tuple[int, ...] = SOLO_UNIQUE_DECADES_DEFAULT

    def __post_init__(self) -> None:
        covered: dict[int, Showcase] = {}
        for v in sorted(self.variations, key=lambda s: s.name):
            if not v.is_variation:
                raise RulesError(f"{v.name} is a base showcase, not a variation")
            if v.position in covered:
                raise RulesError(
                    f"variations {covered[v.position].name} and {v.name} both cover {BASE_LAYOUT[v.position].name}"
                    " (at most one variation per base showcase)"
                )
            covered[v.position] = v
        if self.secret_decade is not None and not (isinstance(self.secret_decade, int) and 0 <= self.secret_decade <= 9):
            raise RulesError(f"secret decade {self.secret_decade!r} is outside 0-9")

    @property
    def layout(self) -> tuple[Showcase, ...]:
        """The five showcases in hall order, variations in place of what they cover."""
        layout = list(BASE_LAYOUT)
        for v in self.variations:
            layout[v.position] = v
        return tuple(layout)

    def allowed_unique_decades(self, players: int) -> tuple[int, ...]:
        return self.solo_unique_decades if players == 1 else UNIQUE_DECADES_ALLOWED[players]

    def to_json(self) -> dict:
        """The ``"rules"`` object of a deal file (only non-default keys are needed, all are written)."""
        return {
            "variations": [v.name for v in VARIATIONS if v in self.variations],
            "secret_decade": self.secret_decade,
            "depot_full_ends_game": self.depot_full_ends_game,
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read a deal file's ``"rules"`` object; absent keys mean the defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError('"rules" must be an object')
        unknown = set(data) - {"variations", "secret_decade", "depot_full_ends_game"}
        if unknown:
            raise RulesError(f'unknown key "{sorted(unknown)[0]}" in "rules"')
        names = data.get("variations") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RulesError('"variations" must be a list of variation names')
        variations = parse_variations(names)
        decade = data.get("secret_decade")
        if decade is not None and (isinstance(decade, bool) or not isinstance(decade, int)):
            raise RulesError(f'"secret_decade" must be a whole number 0-9, not {decade!r}')
        depot = data.get("depot_full_ends_game", False)
        if not isinstance(depot, bool):
            raise RulesError(f'"depot_full_ends_game" must be true or false, not {depot!r}')
        return cls(variations, decade, depot)


def parse_variations(names: list[str]) -> frozenset[Showcase]:
    """Variation names (case-insensitive) -> the set; a base showcase or a repeat is an error."""
    variations: list[Showcase] = []
    for name in names:
        try:
            showcase = Showcase.parse(name)
        except RulesError:
            expected = " ".join(v.name for v in VARIATIONS)
            raise RulesError(f"unknown variation {name!r} (expected one of {expected})") from None
        if not showcase.is_variation:
            raise RulesError(f"{showcase.name} is a base showcase, not a variation")
        if showcase in variations:
            raise RulesError(f"variation {showcase.name} is named twice")
        variations.append(showcase)
    return frozenset(variations)


def spot_name(layout: tuple[Showcase, ...], flat_index: int) -> str:
    """``ERA:2`` for a flat hall index (0-15), spots counted from 1 at the left."""
    showcase, spot = showcase_of(flat_index)
    return f"{layout[showcase].name}:{spot + 1}"


def focus_most(layout: tuple[Showcase, ...]) -> int:
    """Most cards of one continent a hall can hold: one per showcase, three in ONE
    CONTINENT (7 in the base layout; 5 when a variation covers ONE CONTINENT)."""
    return sum(kind.size if kind is Showcase.CONTINENT else 1 for kind in layout)


def showcase_of(flat_index: int) -> tuple[int, int]:
    """(showcase position, spot within it) of a flat hall index."""
    return _SPOT_TABLE[flat_index]


def showcase_start(position: int) -> int:
    """Flat index of the leftmost spot of the showcase at ``position``."""
    return _STARTS[position]


_STARTS = tuple(sum(s.size for s in BASE_LAYOUT[:p]) for p in range(len(BASE_LAYOUT)))
_SPOT_TABLE = tuple((p, i) for p, s in enumerate(BASE_LAYOUT) for i in range(s.size))
