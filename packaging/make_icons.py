"""Draw the application icon: an SVG plus PNGs at the usual sizes, an .ico and an .icns.

Run from the repository root when the design changes; the output in ``resources/icons/`` is
committed, so neither building nor running the application needs Pillow.

    python packaging/make_icons.py

The design, on a 512-unit grid: a rounded teal tile, two overlapping paper sheets (the
document and its near-duplicate) and an amber badge with the "approximately equal" sign.
The SVG and the raster images are drawn from the same numbers below.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "icons"
NAME = "ndd-desktop"
SIZES = (16, 32, 48, 64, 128, 256, 512)
GRID = 512

TILE = "#1f6f78"
TILE_EDGE = "#17545b"
PAPER_BACK = "#d7e9eb"
PAPER = "#ffffff"
INK = "#9fb7ba"
BADGE = "#f2a93b"
BADGE_INK = "#ffffff"

TILE_BOX = (24, 24, 488, 488, 96)  # x0, y0, x1, y1, corner radius
BACK_SHEET = (92, 70, 312, 356, 18)
FRONT_SHEET = (172, 140, 392, 426, 18)
LINES = [(204, 206 + 36 * k, 360 - (48 if k % 3 == 2 else 0)) for k in range(6)]  # x0, y, x1
LINE_WIDTH = 14
BADGE_CIRCLE = (372, 372, 96)  # cx, cy, r
WAVE_ROWS = (350, 394)  # y of the two strokes of the sign
WAVE_HALF = 52  # half width of a stroke
WAVE_WIDTH = 18


def _wave_points(cy: float, cx: float, half: float, steps: int = 48) -> list[tuple[float, float]]:
    """Points of one tilde stroke: a single sine period centred at (cx, cy)."""
    import math

    amp = half * 0.28
    return [
        (cx - half + 2 * half * t / steps, cy - amp * math.sin(2 * math.pi * t / steps))
        for t in range(steps + 1)
    ]


def svg() -> str:
    """The icon as an SVG document (512 x 512 user units)."""

    def rect(box: tuple, fill: str, stroke: str | None = None) -> str:
        x0, y0, x1, y1, r = box
        extra = f' stroke="{stroke}" stroke-width="8"' if stroke else ""
        return (
            f'  <rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" '
            f'fill="{fill}"{extra}/>'
        )

    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{GRID}" height="{GRID}" '
        f'viewBox="0 0 {GRID} {GRID}">',
        "  <title>ndd-desktop</title>",
        rect(TILE_BOX, TILE, TILE_EDGE),
        rect(BACK_SHEET, PAPER_BACK),
        rect(FRONT_SHEET, PAPER),
    ]
    for x0, y, x1 in LINES:
        parts.append(
            f'  <line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="{INK}" '
            f'stroke-width="{LINE_WIDTH}" stroke-linecap="round"/>'
        )
    cx, cy, r = BADGE_CIRCLE
    parts.append(f'  <circle cx="{cx}" cy="{cy}" r="{r}" fill="{BADGE}" stroke="{TILE_EDGE}" '
                 f'stroke-width="8"/>')
    for row in WAVE_ROWS:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in _wave_points(row, cx, WAVE_HALF))
        parts.append(
            f'  <polyline points="{pts}" fill="none" stroke="{BADGE_INK}" '
            f'stroke-width="{WAVE_WIDTH}" stroke-linecap="round" stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def raster(size: int) -> Image.Image:
    """The icon drawn at 4x ``size`` then scaled down (cheap anti-aliasing)."""
    big = max(size * 4, 256)
    k = big / GRID
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)

    def box(b: tuple) -> tuple[list[float], float]:
        x0, y0, x1, y1, r = b
        return [x0 * k, y0 * k, x1 * k, y1 * k], r * k

    xy, r = box(TILE_BOX)
    draw.rounded_rectangle(xy, r, fill=TILE, outline=TILE_EDGE, width=max(1, round(8 * k)))
    xy, r = box(BACK_SHEET)
    draw.rounded_rectangle(xy, r, fill=PAPER_BACK)
    xy, r = box(FRONT_SHEET)
    draw.rounded_rectangle(xy, r, fill=PAPER)
    if size >= 32:  # text lines are noise at 16 px
        for x0, y, x1 in LINES:
            w = LINE_WIDTH * k
            draw.line([(x0 * k, y * k), (x1 * k, y * k)], fill=INK, width=round(w))
            for x in (x0, x1):
                draw.ellipse([x * k - w / 2, y * k - w / 2, x * k + w / 2, y * k + w / 2], fill=INK)
    cx, cy, rr = BADGE_CIRCLE
    draw.ellipse([(cx - rr) * k, (cy - rr) * k, (cx + rr) * k, (cy + rr) * k], fill=BADGE,
                 outline=TILE_EDGE, width=max(1, round(8 * k)))
    for row in WAVE_ROWS:
        pts = [(x * k, y * k) for x, y in _wave_points(row, cx, WAVE_HALF)]
        draw.line(pts, fill=BADGE_INK, width=round(WAVE_WIDTH * k), joint="curve")
        for x, y in (pts[0], pts[-1]):
            w = WAVE_WIDTH * k
            draw.ellipse([x - w / 2, y - w / 2, x + w / 2, y + w / 2], fill=BADGE_INK)
    return img.resize((size, size), Image.LANCZOS)


def main() -> int:
    """Write every icon file into ``resources/icons/``."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{NAME}.svg").write_text(svg(), encoding="utf-8")
    images = {size: raster(size) for size in SIZES}
    for size, img in images.items():
        img.save(OUT / f"{NAME}-{size}.png", optimize=True)
    images[256].save(OUT / f"{NAME}.ico", sizes=[(s, s) for s in (16, 32, 48, 64, 128, 256)])
    images[512].save(OUT / f"{NAME}.icns")
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
