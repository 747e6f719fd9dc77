"""Small builders for hand-made boards (in the state notation), late-game positions of
random games, and an engine-only exhaustive search to check solvers against."""

from __future__ import annotations

import random

from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.model import start_of
from solver.moves import Turn
from solver.notation import parse_rules, parse_state
from solver.rules import Rules
from solver.scoring import solo_breakdown
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


RULE_SETS = ["base", "SHORT_ERA+LINKS+ANTIQUITY", "SPREAD_THE_YEARS+ONE_DECADE+UNIQUE_DECADES+SD3", "DFE", "SD5"]


def random_game(seed: int, rules: str) -> tuple[Game, list, int]:
    """A random legal game of seed ``seed``'s deal under ``rules`` (``random_plan``): the
    game, its cards taken in order, and its final solo score."""
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    turns, final = random_plan(game, seed)
    return game, [t.take.card for t in turns], solo_breakdown(game, final).total


def random_plan(game: Game, seed: int, spot_share: float = 0.9) -> tuple[list[Turn], State]:
    """A random legal solo game: a random take each turn, placed on a random legal spot
    ``spot_share`` of the time (else anywhere legal, depot or END included); its turns and
    final state."""
    rng = random.Random(seed)
    state, turns = game.initial_state(), []
    while not state.is_over:
        take = rng.choice(game.legal_takes(state))
        after = game.apply_take(state, take)
        places = game.legal_places(after)
        spots = [p for p in places if p.is_spot]
        place = rng.choice(spots) if spots and rng.random() < spot_share else rng.choice(places)
        turns.append(Turn(take, place))
        state = game.apply_place(after, place)
    return turns, state


def endgame(seed, rules, turns_left):
    """A state of a random game (spots preferred) with at most ``turns_left`` turns to go and
    no white card still to take (one in the hall is welcome), at a take decision (even
    seeds) or a place decision (odd)."""
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_over:
        at_place = seed % 2 == 1
        if start_of(game, state).turns <= turns_left - (0 if at_place else 1):
            if not any(c.is_white for c in state.market_cards + list(game.deal.stock[state.drawn:state.drawn + 3])):
                if at_place:
                    take = rng.choice(game.legal_takes(state))
                    return game, game.apply_take(state, take)
                return game, state
            return None
        takes = game.legal_takes(state)
        rng.shuffle(takes)
        after = next((a for a in (game.apply_take(state, t) for t in takes) if game.has_legal_spot(a, a.holding)),
                     game.apply_take(state, takes[0]))  # a card that fits, where there is one
        places = game.legal_places(after)
        spots = [p for p in places if p.is_spot]
        state = game.apply_place(after, rng.choice(spots) if spots else places[-1])  # DEPOT while it has room
    return None


def endgames(rules, count, turns_left=3):
    found = []
    for seed in range(400):
        position = endgame(seed, rules, turns_left)
        if position is not None:
            found.append(position)
        if len(found) == count:
            return found
    raise AssertionError(f"no endgame under {rules}")


def holding_a_white_card(turns_left):
    """A random game's place decision holding a white card, with at most ``turns_left`` turns to
    go: white cards are passed over until then, so that one is still there to take."""
    for seed in range(200):
        game = Game(seeded_deal(seed))
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            takes = game.legal_takes(state)
            white = [t for t in takes if t.card.is_white]
            if white and start_of(game, state).turns <= turns_left:
                return game, game.apply_take(state, white[0])
            after = game.apply_take(state, rng.choice([t for t in takes if not t.card.is_white] or takes))
            spots = [p for p in game.legal_places(after) if p.is_spot]
            state = game.apply_place(after, rng.choice(spots or game.legal_places(after)))
    raise AssertionError("no white card to hold late in a game")


def brute_force_from(game, state):
    """Best final engine score from a take or place decision: the engine alone."""
    if state.is_over:
        return solo_breakdown(game, state).total
    if state.holding is not None:
        return max(brute_force_from(game, game.apply_place(state, p, check=False)) for p in game.legal_places(state))
    return max(brute_force_from(game, game.apply_take(state, t, check=False)) for t in game.legal_takes(state))
