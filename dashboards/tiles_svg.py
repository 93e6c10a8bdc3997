"""Mahjong tiles as small inline SVG pictures, drawn from shapes (no image files, no fonts
beyond the browser's sans-serif for digits and letters).

Each suit reads at a glance the way a real set does: dots are coloured circles in the
classic layouts, bamboo are green sticks, characters are a numeral over a red 萬-like
glyph (drawn from strokes, since a CJK font may be missing), winds are their letter,
the red dragon is the 中 box-and-stroke, the green dragon a green F, the white dragon the
usual blue frame, flowers and seasons a coloured blossom with their number. Each picture
carries its code (``data-tile``) and a readable name (``<title>``, ``aria-label``), so
a hover, a screen reader and a test can all tell which tile it is.

The vn-160 and american sets add their own faces: the king (Tinh 星) and queen (Hậu 后)
flower sets as a star and a crown, the khung (framed jokers) as a blue or red frame around
their Vietnamese name and number (round frames for the second khung set, diamonds for the
third, as rules/vn-160.md §1.2 says), the american joker as a bold JOKER tile, and ``FL``
(a flower the log does not identify) as a grey blossom with a question mark.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from urllib.parse import quote

from mjaudit.parts.replay.rulesets.vn160.tiles import KHUNG_NUMBER
from mjaudit.parts.schemas.tiles import KHUNG, KHUNG_EXTRA_SETS

W, H = 60, 80  # the view box; a tile is drawn at any width with this aspect
FACE, EDGE, LINE = "#fffaf0", "#d9ccab", "#a89a7a"
BLUE, GREEN, RED, NAVY = "#1f4e9c", "#1e7b45", "#c0392b", "#1b2a4a"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"

SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
HONOUR_NAMES = {
    "E": "East wind",
    "S": "South wind",
    "W": "West wind",
    "N": "North wind",
    "C": "Red dragon",
    "F": "Green dragon",
    "P": "White dragon",
}

# dot centres (x, y, radius, colour) in the classic layouts
_DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    1: [(30, 37, 19, BLUE)],
    2: [(30, 20, 11, GREEN), (30, 54, 11, BLUE)],
    3: [(15, 15, 9, BLUE), (30, 37, 9, RED), (45, 59, 9, GREEN)],
    4: [(18, 20, 10, BLUE), (42, 20, 10, GREEN), (18, 54, 10, GREEN), (42, 54, 10, BLUE)],
    5: [
        (17, 17, 8.5, BLUE),
        (43, 17, 8.5, GREEN),
        (30, 37, 8.5, RED),
        (17, 57, 8.5, GREEN),
        (43, 57, 8.5, BLUE),
    ],
    6: [(19, y, 8, GREEN if y < 20 else RED) for y in (13, 37, 61)]
    + [(41, y, 8, GREEN if y < 20 else RED) for y in (13, 37, 61)],
    7: [(13, 11, 6.5, GREEN), (30, 19, 6.5, GREEN), (47, 27, 6.5, GREEN)]
    + [(x, y, 7, RED) for y in (45, 61) for x in (19, 41)],
    8: [(x, y, 7, BLUE) for y in (11, 27, 43, 59) for x in (19, 41)],
    9: [(x, y, 7.5, c) for y, c in ((13, BLUE), (37, RED), (61, GREEN)) for x in (13, 30, 47)],
}

# bamboo sticks (x, y top, length, colour); width comes from the count
_STICKS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 6, 28, GREEN), (30, 40, 28, GREEN)],
    3: [(30, 6, 28, GREEN), (19, 40, 28, GREEN), (41, 40, 28, GREEN)],
    4: [(x, y, 28, GREEN) for y in (6, 40) for x in (19, 41)],
    5: [(x, y, 28, GREEN) for y in (6, 40) for x in (14, 46)] + [(30, 23, 28, RED)],
    6: [(x, y, 28, GREEN) for y in (6, 40) for x in (13, 30, 47)],
    7: [(30, 4, 20, RED)] + [(x, y, 20, GREEN) for y in (27, 50) for x in (13, 30, 47)],
    8: [(x, y, 28, GREEN) for y in (6, 40) for x in (9, 23, 37, 51)],
    9: [(x, y, 20, RED if x == 30 else GREEN) for y in (4, 27, 50) for x in (13, 30, 47)],
}


# vn-160 khung (rules/vn-160.md §1.2): code -> (frame colour word, name, domain); the codes
# are schemas.tiles.KHUNG and the printed numbers the engine's KHUNG_NUMBER.
KHUNG_FACES: dict[str, tuple[str, str, str]] = {
    "BT": ("blue", "Tổng", "any tile"),
    "BP": ("blue", "Văn", "any dots"),
    "BS": ("blue", "Sách", "any bamboo"),
    "BM": ("blue", "Vạn", "any character"),
    "RH": ("red", "Hoa", "any flower"),
    "RU": ("red", "Hợp", "any suit tile"),
    "RD": ("red", "Nguyên", "any dragon"),
    "RW": ("red", "Hỉ", "any wind"),
}
assert tuple(KHUNG_FACES) == KHUNG
EXTRA_FLOWER_SETS = {"k": "King flower", "q": "Queen flower"}  # bộ Tinh 星, bộ Hậu 后
EXTRA_FLOWER_VN = {"k": "Tinh", "q": "Hậu"}


def khung_parts(code: str) -> tuple[str, int] | None:
    """``RU3`` -> (``RU``, 3), ``BT`` -> (``BT``, 1); None for a code that is no khung."""
    if code not in KHUNG and code not in KHUNG_EXTRA_SETS:
        return None
    return code[:2], int(code[2:] or 1)


def tile_name(code: str) -> str:
    """``5p`` -> ``5 dots``, ``E`` -> ``East wind``, ``f2`` -> ``Flower 2``, ``k3`` ->
    ``King flower 3 (Tinh)``, ``RU2`` -> ``Red khung Hợp 2 (any suit tile), set 2``,
    ``J`` -> ``Joker``."""
    if len(code) == 2 and code[0].isdigit() and code[1] in SUIT_NAMES:
        return f"{code[0]} {SUIT_NAMES[code[1]]}"
    if code in HONOUR_NAMES:
        return HONOUR_NAMES[code]
    if len(code) == 2 and code[0] in "fg" and code[1] in "1234":
        return f"{'Flower' if code[0] == 'f' else 'Season'} {code[1]}"
    if len(code) == 2 and code[0] in EXTRA_FLOWER_SETS and code[1] in "1234":
        return f"{EXTRA_FLOWER_SETS[code[0]]} {code[1]} ({EXTRA_FLOWER_VN[code[0]]})"
    parts = khung_parts(code)
    if parts is not None:
        colour, name, domain = KHUNG_FACES[parts[0]]
        number = KHUNG_NUMBER[parts[0]]
        extra = f", set {parts[1]}" if parts[1] > 1 else ""
        return f"{colour.capitalize()} khung {name} {number} ({domain}){extra}"
    if code == "J":
        return "Joker"
    if code == "FL":
        return "Flower (which one is not recorded)"
    return code


def _dot(x: float, y: float, r: float, colour: str) -> str:
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.62:.2f}" fill="{FACE}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.32:.2f}" fill="{colour}"/>'
    )


def _dots(n: int) -> str:
    body = "".join(_dot(*d) for d in _DOTS[n])
    if n == 1:  # the big one-dot has an extra ring
        body += f'<circle cx="30" cy="37" r="15" fill="none" stroke="{RED}" stroke-width="2"/>'
    return body


def _stick(x: float, y: float, length: float, colour: str, width: float) -> str:
    node = y + length / 2
    return (
        f'<rect x="{x - width / 2}" y="{y}" width="{width}" height="{length}" rx="{width / 2}" '
        f'fill="{colour}"/>'
        f'<line x1="{x - width / 2}" y1="{node}" x2="{x + width / 2}" y2="{node}" '
        f'stroke="{FACE}" stroke-width="1.6"/>'
        f'<line x1="{x}" y1="{y + 3}" x2="{x}" y2="{y + length - 3}" stroke="{FACE}" '
        'stroke-width="1" opacity="0.5"/>'
    )


def _bamboo(n: int) -> str:
    if n == 1:  # one bamboo: a tall stalk with a red bud, as the bird is drawn on many sets
        return (
            _stick(30, 14, 54, GREEN, 12)
            + f'<circle cx="30" cy="11" r="7" fill="{RED}"/>'
            + f'<path d="M18 30 Q30 24 42 30" fill="none" stroke="{GREEN}" stroke-width="3"/>'
        )
    width = 7 if n in (8, 9) else 8.5
    return "".join(_stick(x, y, length, c, width) for x, y, length, c in _STICKS[n])


def _wan(y: float) -> str:
    """A red 萬-like glyph from strokes: grass radical, the 田 box, the 冂 frame and 厶."""
    s = f'stroke="{RED}" stroke-width="3" stroke-linecap="round" fill="none"'
    return (
        f'<g transform="translate(16 {y}) scale(0.93 0.6)" {s}>'
        '<path d="M0 6 H30 M9 0 V11 M21 0 V11"/>'  # 艹
        '<path d="M5 15 H25 V30 H5 Z M5 22.5 H25 M15 15 V30"/>'  # 田
        '<path d="M1 48 V35 H29 V46 Q29 49 25 48"/>'  # 冂
        '<path d="M15 30 V42 M8 45 L20 39 M19 42 L23 46"/>'  # 丨 and 厶
        "</g>"
    )


def _characters(n: int) -> str:
    return (
        f'<text x="30" y="30" text-anchor="middle" font-family="{FONT}" font-size="30" '
        f'font-weight="700" fill="{NAVY}">{n}</text>' + _wan(38)
    )


def _letter(text: str, colour: str, size: int = 40) -> str:
    return (
        f'<text x="30" y="{37 + size * 0.36:.1f}" text-anchor="middle" font-family="{FONT}" '
        f'font-size="{size}" font-weight="700" fill="{colour}">{text}</text>'
    )


def _honour(code: str) -> str:
    if code in "ESWN":
        return _letter(code, NAVY)
    if code == "C":  # 中: a box crossed by one long stroke
        return (
            f'<rect x="14" y="24" width="32" height="22" rx="2" fill="none" stroke="{RED}" '
            'stroke-width="5"/>'
            f'<line x1="30" y1="9" x2="30" y2="66" stroke="{RED}" stroke-width="5" '
            'stroke-linecap="round"/>'
        )
    if code == "F":
        return _letter("F", GREEN, 44)
    # P, the white dragon: the blue double frame of most sets
    return (
        f'<rect x="11" y="12" width="38" height="50" rx="3" fill="none" stroke="{BLUE}" '
        'stroke-width="4"/>'
        f'<rect x="17" y="18" width="26" height="38" rx="2" fill="none" stroke="{BLUE}" '
        'stroke-width="1.6"/>'
    )


def _bonus(code: str) -> str:
    flower = code[0] == "f"
    petal, centre = ("#d6336c", "#f5b700") if flower else ("#1c7c8c", "#f08c00")
    petals = 5 if flower else 4
    body = "".join(
        f'<ellipse cx="30" cy="30" rx="7" ry="13" fill="{petal}" '
        f'transform="rotate({k * 360 / petals:.0f} 30 42) translate(0 -1)"/>'
        for k in range(petals)
    )
    body += f'<circle cx="30" cy="42" r="6" fill="{centre}"/>'
    body += (
        f'<text x="8" y="17" font-family="{FONT}" font-size="15" font-weight="700" '
        f'fill="{petal}">{code[1]}</text>'
    )
    return body


def _face(code: str) -> str:
    if len(code) == 2 and code[0].isdigit() and code[1] in SUIT_NAMES:
        n = int(code[0])
        return {"p": _dots, "s": _bamboo, "m": _characters}[code[1]](n)
    if code in HONOUR_NAMES:
        return _honour(code)
    if len(code) == 2 and code[0] in "fg" and code[1] in "1234":
        return _bonus(code)
    if len(code) == 2 and code[0] in EXTRA_FLOWER_SETS and code[1] in "1234":
        return _king(code[1]) if code[0] == "k" else _queen(code[1])
    parts = khung_parts(code)
    if parts is not None:
        return _khung(*parts)
    if code == "J":
        return _joker()
    if code == "FL":
        return _unknown_flower()
    return _letter(escape(code[:3]), NAVY, 22)  # a code of no known set: its name


def _number(text: str, colour: str) -> str:
    """The set number in the top-left corner, as flowers carry it."""
    return (
        f'<text x="8" y="17" font-family="{FONT}" font-size="15" font-weight="700" '
        f'fill="{colour}">{text}</text>'
    )


def _king(n: str) -> str:
    """A king flower (bộ Tinh 星, "star"): a gold five-pointed star."""
    points = []
    for k in range(10):
        r = 23 if k % 2 == 0 else 10
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{30 + r * math.cos(angle):.1f},{43 - r * math.sin(angle):.1f}")
    return (
        f'<polygon points="{" ".join(points)}" fill="#f5b700" stroke="#8a5a00" '
        'stroke-width="1.5"/>'
        f'<circle cx="30" cy="43" r="4" fill="{RED}"/>'
        + _number(n, "#8a5a00")
        + f'<text x="52" y="72" text-anchor="end" font-family="{FONT}" font-size="10" '
        'font-weight="700" fill="#8a5a00">K</text>'
    )


def _queen(n: str) -> str:
    """A queen flower (bộ Hậu 后): a purple crown with three jewels."""
    return (
        '<path d="M12 56 L14 30 L22 42 L30 24 L38 42 L46 30 L48 56 Z" fill="#7b3fa0" '
        'stroke="#4a2260" stroke-width="1.5" stroke-linejoin="round"/>'
        '<rect x="12" y="56" width="36" height="6" rx="2" fill="#4a2260"/>'
        + "".join(f'<circle cx="{x}" cy="{y}" r="3" fill="#f5b700"/>' for x, y in _CROWN)
        + _number(n, "#7b3fa0")
        + f'<text x="52" y="72" text-anchor="end" font-family="{FONT}" font-size="10" '
        'font-weight="700" fill="#7b3fa0">Q</text>'
    )


_CROWN = ((14, 30), (30, 24), (46, 30))


def _frame(shape: int, colour: str) -> str:
    """The khung frame: rectangular (set 1), round (set 2) or diamond (set 3)."""
    s = f'fill="none" stroke="{colour}"'
    if shape == 2:
        return (
            f'<ellipse cx="30" cy="38" rx="25" ry="31" {s} stroke-width="4"/>'
            f'<ellipse cx="30" cy="38" rx="20" ry="26" {s} stroke-width="1.5"/>'
        )
    if shape == 3:
        return (
            f'<polygon points="30,4 56,38 30,72 4,38" {s} stroke-width="4" '
            'stroke-linejoin="round"/>'
            f'<polygon points="30,11 50,38 30,65 10,38" {s} stroke-width="1.5"/>'
        )
    return (
        f'<rect x="5" y="5" width="50" height="66" rx="4" {s} stroke-width="4"/>'
        f'<rect x="10" y="10" width="40" height="56" rx="2" {s} stroke-width="1.5"/>'
    )


def _khung(base: str, shape: int) -> str:
    """A khung: its frame in blue or red around its Vietnamese name, its number below."""
    colour_word, name, _ = KHUNG_FACES[base]
    number = KHUNG_NUMBER[base]
    colour = BLUE if colour_word == "blue" else RED
    long = len(name) > 4
    size = {1: 11 if long else 15, 2: 9.5 if long else 14, 3: 9 if long else 12.5}[shape]
    return (
        _frame(shape, colour)
        + f'<text x="30" y="38" text-anchor="middle" font-family="{FONT}" font-size="{size}" '
        f'font-weight="700" fill="{colour}">{escape(name)}</text>'
        + f'<text x="30" y="58" text-anchor="middle" font-family="{FONT}" font-size="14" '
        f'font-weight="700" fill="{colour}">{number}</text>'
    )


def _joker() -> str:
    """The american joker: a big J over the word JOKER, in the card's bright colours."""
    return (
        f'<text x="30" y="44" text-anchor="middle" font-family="{FONT}" font-size="38" '
        'font-weight="700" fill="#d6336c">J</text>'
        f'<text x="30" y="62" text-anchor="middle" font-family="{FONT}" font-size="11" '
        'font-weight="700" fill="#5f3dc4" letter-spacing="0.5">JOKER</text>'
        '<path d="M10 12 L18 8 L16 16 Z M50 12 L42 8 L44 16 Z" fill="#f08c00"/>'
    )


def _unknown_flower() -> str:
    """A flower whose identity the log does not record: a grey blossom with a '?'."""
    body = "".join(
        f'<ellipse cx="30" cy="30" rx="7" ry="13" fill="#adb5bd" '
        f'transform="rotate({k * 72} 30 42) translate(0 -1)"/>'
        for k in range(5)
    )
    return body + '<circle cx="30" cy="42" r="6" fill="#868e96"/>' + _number("?", "#868e96")


@lru_cache(maxsize=1024)
def tile_svg(code: str, width: int = 34, state: str = "") -> str:
    """One tile as an inline ``<svg>``. ``state``: "" plain, "new" (the tile of the
    current event, outlined), "claimed" (a discard another player took, faded),
    "back" (face down)."""
    height = round(width * H / W)
    label = "face-down tile" if state == "back" else tile_name(code)
    outline = ""
    if state == "new":
        outline = (
            f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="8" fill="none" '
            'stroke="#f08c00" stroke-width="4"/>'
        )
    if state == "back":
        face = (
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 7}" rx="7" fill="#2f8f6f" '
            f'stroke="{LINE}"/>'
            f'<rect x="7" y="7" width="{W - 14}" height="{H - 19}" rx="4" fill="none" '
            'stroke="#bfe3d4" stroke-width="1.5"/>'
        )
    else:
        face = (
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 7}" rx="7" fill="{FACE}" '
            f'stroke="{LINE}"/>'
            f'<g transform="translate(0 -1) scale(1 0.97)">{_face(code)}</g>'
        )
    opacity = ' opacity="0.45"' if state == "claimed" else ""
    safe = escape(code, quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(label, quote=True)}" '
        f'data-tile="{safe}" class="mj-tile{" mj-" + state if state else ""}"{opacity} '
        f'style="display:inline-block;vertical-align:bottom;margin:1px">'
        f"<title>{escape(label)}</title>"
        f'<rect x="1" y="5" width="{W - 2}" height="{H - 6}" rx="7" fill="{EDGE}" '
        f'stroke="{LINE}"/>'
        f"{face}{outline}</svg>"
    )


@lru_cache(maxsize=1024)
def tile_img(code: str, width: int = 34, state: str = "") -> str:
    """The tile as an ``<img>`` of its SVG (a data URI). Streamlit's ``st.html`` keeps
    only HTML elements, so inline ``<svg>`` would be stripped; an image is kept."""
    svg = tile_svg(code, width, state)
    label = "face-down tile" if state == "back" else tile_name(code)
    height = round(width * H / W)
    return (
        f'<img src="data:image/svg+xml;utf8,{quote(svg, safe=" =:/;,")}" width="{width}" '
        f'height="{height}" alt="{escape(label, quote=True)}" title="{escape(label, quote=True)}" '
        f'data-tile="{escape(code, quote=True)}" data-state="{state}" '
        'style="display:inline-block;vertical-align:bottom;margin:1px">'
    )


def tiles_html(codes: list[str] | tuple[str, ...], width: int = 34, state: str = "") -> str:
    return "".join(tile_img(c, width, state) for c in codes)


def sample_sheet(width: int = 40) -> str:
    """Every tile of every mahjong set once: a picture to check the drawings by eye."""
    from mjaudit.parts.schemas.tiles import AMERICAN, VN160

    codes = list(dict.fromkeys([*VN160.codes, *AMERICAN.codes]))
    rows = [codes[i : i + 9] for i in range(0, len(codes), 9)]
    body = "".join(f"<div>{tiles_html(list(r), width)}</div>" for r in rows)
    states = "".join(tile_svg("5p", width, state) for state in ("new", "claimed", "back"))
    return f"<div>{body}<div>{states}</div></div>"
