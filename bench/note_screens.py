#!/usr/bin/env python3
"""Look at notes as a reader does: fixture papers compiled, rendered, photographed.

Compiles each fixture paper (``../shared/fixtures/pdfs``, or the pdfs-eval papers with
``--eval``) into a scratch vault, renders every note the way Obsidian's reading view
shows it, and takes a screenshot of each page in headless Chromium (Debian ``chromium``
driven by Playwright, no browser download). The rendering is CommonMark with tables
(markdown-it-py) plus the Obsidian syntax vaultd writes: ``%% … %%`` comments hidden,
``> [!note]-`` callouts folded, ``[[target|alias]]`` links, ``![[figure.png]]`` embeds and
the frontmatter shown as a property table.

For each note it prints the screenshot's path and what a reader sees: the share of the
visible characters that are the paper's own words (quotes, headings, references,
table cells), and any provenance text that shows (there must be none).

    python3 bench/note_screens.py [--eval] [--out DIR] [--width 900] [--height 1400]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compile_eval import eval_dir, stage

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]
PROVENANCE_WORDS = ("text_sha256", "char_range", "pdf_rect", "chunk id=", "parser:",
                    "enrichment:", "bbox")
CSS = """
body { font: 16px/1.6 -apple-system, 'DejaVu Sans', sans-serif; max-width: 760px;
       margin: 24px auto; color: #222; }
blockquote { border-left: 3px solid #7a5cff; margin: 0.6em 0; padding: 0 0 0 1em; }
details { background: #f4f1ff; border-radius: 4px; padding: 4px 10px; margin: 0.4em 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
.props { font-size: 13px; color: #555; margin-bottom: 1.5em; }
.props td { border: none; padding: 0 8px 0 0; vertical-align: top; }
a { color: #6a4cdf; text-decoration: none; } img { max-width: 100%; }
"""

_COMMENT = re.compile(r"%%.*?%%", re.S)
_CALLOUT = re.compile(r"^> \[!(\w+)\]([-+]?) ?(.*)\n((?:>.*\n?)*)", re.M)
_EMBED = re.compile(r"!\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]")
_LINK = re.compile(r"\[\[([^\]|]+?)(?:\|([^\]]+))?\]\]")


def obsidian_html(note_md: str, vault: Path) -> str:
    """HTML of ``note_md`` as Obsidian's reading view shows it (close enough to look at)."""
    import yaml
    from markdown_it import MarkdownIt

    props = ""
    if note_md.startswith("---\n"):
        head, _, note_md = note_md[4:].partition("\n---\n")
        rows = "".join(f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(json.dumps(v, default=str))}"
                       "</td></tr>" for k, v in (yaml.safe_load(head) or {}).items())
        props = f'<table class="props">{rows}</table>'
    md = MarkdownIt("commonmark").enable("table")
    body = _COMMENT.sub("", note_md)

    def callout(m: re.Match[str]) -> str:
        inner = re.sub(r"^> ?", "", m.group(4), flags=re.M)
        opened = "" if m.group(2) == "-" else " open"
        title = html.escape(m.group(3) or m.group(1).title())
        return f"<details{opened}><summary>{title}</summary>\n\n{md.render(inner)}</details>\n\n"

    body = _CALLOUT.sub(callout, body)

    def embed(m: re.Match[str]) -> str:
        found = next(vault.rglob(Path(m.group(1)).name), None)
        return f'<img src="{found.as_uri()}">' if found else m.group(0)

    body = _EMBED.sub(embed, body)
    body = _LINK.sub(lambda m: f'<a href="#">{html.escape(m.group(2) or m.group(1))}</a>', body)
    return f"<html><head><meta charset='utf-8'><style>{CSS}</style></head><body>{props}{md.render(body)}</body></html>"


def compile_fixtures(vault_dir: Path, pdfs: list[Path]) -> list[Path]:
    from vaultd.config import Settings, default_config_toml
    from vaultd.pipeline.compile import compile_note
    from vaultd.vault import Vault

    vault = Vault(vault_dir)
    vault.init(default_config_toml())
    notes = []
    for i, pdf in enumerate(pdfs):
        key = f"{re.sub(r'[^a-z]', '', pdf.stem.lower())[:16]}{2000 + i}paper"
        stage(vault, key, pdf)
        compile_note(vault, Settings(), key)
        notes.append(vault.note_path(key))
    return notes


def paper_words(note_md: str) -> int:
    from vaultd.notes.reader import parse_note

    return sum(len(c.text) for c in parse_note(note_md).chunks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eval", action="store_true", help="the pdfs-eval papers, not the fixtures")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "vaultd-note-screens")
    ap.add_argument("--width", type=int, default=900)
    ap.add_argument("--height", type=int, default=1400)
    args = ap.parse_args()
    if not CHROMIUM.exists():
        sys.exit("no /usr/bin/chromium: run `bash scripts/install.sh --dev` first")
    from playwright.sync_api import sync_playwright

    root = eval_dir() / "pdfs" if args.eval else eval_dir().parent / "pdfs"
    pdfs = sorted(p for p in root.rglob("*.pdf") if p.parent.name not in {"corrupt", "encrypted"})
    if not pdfs:
        sys.exit(f"no PDFs under {root}; set VAULTD_TEST_FIXTURES to ../shared/fixtures")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        notes = compile_fixtures(Path(tmp) / "vault", pdfs)
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        for note in notes:
            text = note.read_text(encoding="utf-8")
            page_html = Path(tmp) / f"{note.stem}.html"
            page_html.write_text(obsidian_html(text, Path(tmp) / "vault"), encoding="utf-8")
            page.goto(page_html.as_uri())
            shown = page.inner_text("body")
            leaks = [w for w in PROVENANCE_WORDS if w in shown]
            shot = args.out / f"{note.stem}.png"
            page.screenshot(path=str(shot))
            # and one screen further in, where the paper's body reads
            total = page.evaluate("document.body.scrollHeight")
            page.evaluate(f"window.scrollTo(0, {int(total * 0.4)})")
            page.screenshot(path=str(args.out / f"{note.stem}-body.png"))
            share = min(1.0, paper_words(text) / max(1, len(shown)))
            print(f"{shot}  {len(shown):>7} visible chars, {share:5.1%} the paper's own words"
                  f"{'  PROVENANCE SHOWS: ' + ', '.join(leaks) if leaks else ''}")
        browser.close()


if __name__ == "__main__":
    main()
