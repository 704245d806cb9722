"""Draw the browser extension's toolbar icons: extension/icons/icon-<size>.png.

A rounded square in the vault's blue with a white check-like "v" (a verified citation),
at the sizes Chrome asks for. Drawn at 8x and scaled down, so every size is smooth.
Run after changing the design: `.venv/bin/python scripts/extension_icons.py`.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICON_SIZES_PX = (16, 32, 48, 128)
SUPERSAMPLE = 8
BACKGROUND = (31, 78, 140, 255)
MARK = (255, 255, 255, 255)
ICONS_DIR = Path(__file__).resolve().parents[1] / "extension" / "icons"


def draw_icon(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=BACKGROUND)
    # The "v": two strokes meeting low in the middle, thick enough to read at 16 px.
    points = [(big * 0.24, big * 0.30), (big * 0.50, big * 0.74), (big * 0.76, big * 0.30)]
    draw.line(points, fill=MARK, width=max(1, round(big * 0.14)), joint="curve")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def icon_path(size: int, folder: Path = ICONS_DIR) -> Path:
    return folder / f"icon-{size}.png"


def write_icons(folder: Path = ICONS_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for size in ICON_SIZES_PX:
        path = icon_path(size, folder)
        draw_icon(size).save(path, optimize=True)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_icons():
        print(written)
