"""Small builders for hand-made boards, written in the state notation."""

from __future__ import annotations

from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.notation import parse_state
from solver.rules import Rules
from solver.state import State

EMPTY_HALL = "_._._._._._,_._._._,_._._,_._,_"
EMPTY_MARKET = "-,-,-,-,-,-"


def board(hall: str = EMPTY_HALL, market: str = EMPTY_MARKET, depot: str = "-", rules: str = "base",
          flags: str = "x") -> tuple[Game, State]:
    """A solo game and a state with this hall, market and depot (the deal is seed 0's)."""
    state, parsed_rules = parse_state(f"{rules}/{market}/t16r17p0d16/OC:{hall}:{depot}:{flags}")
    return Game(Deal(seeded_deal(0).cards, parsed_rules)), state


def game_for(rules: Rules = Rules(), seed: int = 0, players: int = 1) -> Game:
    return Game(Deal(seeded_deal(seed).cards, rules), players)
