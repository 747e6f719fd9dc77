"""The final exhibition hall as an SVG picture: showcases of cards (year, continent colour,
subject), the depot and the score breakdown. Plain SVG 1.1, no scripts or external files,
so any browser shows it."""

from __future__ import annotations

from html import escape
from pathlib import Path

from cli.common import write_atomically
from solver.cards import Card, Continent
from solver.deck import default_deck
from solver.engine import Game
from solver.requirements import showcase_row
from solver.scoring import Breakdown
from solver.state import Placed, State

COLOURS = {Continent.OC: "#1b9e9e", Continent.SA: "#4c9a2a", Continent.AF: "#e08a1e",
           Continent.AS: "#c0392b", Continent.EU: "#2e6fbd", Continent.NA: "#7d4bb3"}
CONTINENT_NAMES = {Continent.OC: "Oceania", Continent.SA: "South America", Continent.AF: "Africa",
                   Continent.AS: "Asia", Continent.EU: "Europe", Continent.NA: "North America"}
CARD_W, CARD_H, GAP = 128, 84, 10
LEFT, TOP = 170, 70
ROWS_X = LEFT + 6 * (CARD_W + GAP) + 30


def _subject(c: Card) -> str:
    deck = default_deck()
    if c.is_einstein or c.is_white:
        return deck.subject(c)
    shipped = deck.card_of_year(c.year)
    return deck.subject(shipped) if shipped == c else ""


def _wrap(text: str, width: int = 18, lines: int = 2) -> list[str]:
    words, out, line = text.split(), [], ""
    for word in words:
        if len(line) + len(word) + 1 > width and line:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1] + "…"
    return out


def _card(x: int, y: int, placed: Placed | None, c: Card | None = None) -> list[str]:
    if placed is None and c is None:
        return [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="none" stroke="#bbb" '
                f'stroke-dasharray="6 4"/>']
    card = placed.card if placed is not None else c
    white = card.is_white
    fill = "#ffffff" if white else COLOURS[card.continent]
    ink = "#222" if white else "#fff"
    year = "EIN" if card.is_einstein else str(card.year)
    if white and placed is not None:  # its declaration, which never scores
        label = f"as {placed.continent.name}" + (f" {placed.year}" if card.is_einstein else "")
    else:
        label = "white" if white else card.continent.name
    title = "white card" if white else CONTINENT_NAMES[card.continent]
    out = [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="{fill}" stroke="#333" stroke-width="1.5">'
           f'<title>{escape(title)}</title></rect>',
           f'<text x="{x + 10}" y="{y + 26}" font-size="22" font-weight="bold" fill="{ink}">{escape(year)}</text>',
           f'<text x="{x + CARD_W - 10}" y="{y + 24}" font-size="12" text-anchor="end" fill="{ink}">{escape(label)}</text>']
    for k, line in enumerate(_wrap(_subject(card))):
        out.append(f'<text x="{x + 10}" y="{y + 50 + 15 * k}" font-size="12" fill="{ink}">{escape(line)}</text>')
    return out


def hall_svg(game: Game, state: State, breakdown: Breakdown, title: str) -> str:
    """The SVG text of the solo player's hall, depot and score breakdown."""
    board = state.board
    parts = []
    y = TOP
    for position, kind in enumerate(game.layout):
        row = showcase_row(board.hall, position, game.layout)
        parts.append(f'<text x="20" y="{y + CARD_H / 2 + 5}" font-size="15" font-weight="bold" fill="#333">'
                     f'{escape(kind.name.replace("_", " "))}</text>')
        for spot, placed in enumerate(row):
            parts += _card(LEFT + spot * (CARD_W + GAP), y, placed)
        y += CARD_H + GAP
    y += 10
    parts.append(f'<text x="20" y="{y + CARD_H / 2 + 5}" font-size="15" font-weight="bold" fill="#333">DEPOT</text>')
    for k, c in enumerate(board.depot):
        parts += _card(LEFT + k * (CARD_W + GAP), y, None, c)
    if not board.depot:
        parts.append(f'<text x="{LEFT}" y="{y + CARD_H / 2 + 5}" font-size="14" fill="#777">empty</text>')
    height = y + CARD_H + 40
    ty = TOP + 10
    parts.append(f'<text x="{ROWS_X}" y="{ty}" font-size="16" font-weight="bold" fill="#333">Score</text>')
    for name, value in breakdown.items:
        ty += 24
        parts.append(f'<text x="{ROWS_X}" y="{ty}" font-size="14" fill="#333">{escape(name.replace("_", " "))}</text>')
        parts.append(f'<text x="{ROWS_X + 230}" y="{ty}" font-size="14" text-anchor="end" fill="#333">{value}</text>')
    ty += 30
    parts.append(f'<line x1="{ROWS_X}" y1="{ty - 20}" x2="{ROWS_X + 230}" y2="{ty - 20}" stroke="#333"/>')
    parts.append(f'<text x="{ROWS_X}" y="{ty}" font-size="18" font-weight="bold" fill="#111">total</text>')
    parts.append(f'<text x="{ROWS_X + 230}" y="{ty}" font-size="18" font-weight="bold" text-anchor="end" '
                 f'fill="#111">{breakdown.total}</text>')
    width = ROWS_X + 260
    height = max(height, ty + 30)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">')
    background = f'<rect width="{width}" height="{height}" fill="#f7f4ee"/>'
    heading = f'<text x="20" y="40" font-size="22" font-weight="bold" fill="#222">{escape(title)}</text>'
    return "\n".join([head, background, heading, *parts, "</svg>"]) + "\n"


def write_hall_svg(path: str | Path, game: Game, state: State, breakdown: Breakdown, title: str) -> None:
    """Write the picture whole (a temporary file renamed into place)."""
    write_atomically(path, hall_svg(game, state, breakdown, title))
