"""The extension's toolbar icons: in the manifest at the sizes Chrome asks for."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

EXTENSION = Path(__file__).resolve().parents[1] / "extension"
SIZES = ["16", "32", "48", "128"]


def test_the_manifest_names_an_icon_of_each_size_chrome_asks_for() -> None:
    manifest = json.loads((EXTENSION / "manifest.json").read_text(encoding="utf-8"))
    for icons in (manifest.get("icons", {}), manifest["action"].get("default_icon", {})):
        assert sorted(icons, key=int) == SIZES
        for size, rel in icons.items():
            with Image.open(EXTENSION / rel) as image:
                assert (image.format, image.size) == ("PNG", (int(size), int(size))), rel


def test_the_icon_script_draws_the_committed_icons(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "extension_icons", EXTENSION.parent / "scripts" / "extension_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path in module.write_icons(tmp_path):
        with Image.open(path) as drawn, Image.open(EXTENSION / "icons" / path.name) as kept:
            assert drawn.tobytes() == kept.convert(drawn.mode).tobytes(), path.name
