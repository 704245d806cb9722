"""vaultd's import graph has layers and no circles (docs/architecture.md, "Rules").

Every import counts, wherever it is written (module level, inside a function, relative,
``importlib.import_module``): ``tests/test_layers.imports`` walks them. Layers, from the
bottom: the core (models, settings, keys, the vault's files and databases), the adapters
and pure domains (sources, parser, formats, notes, index, …), the services that compose
them (pipeline, lookup, verify), the interfaces (cli, daemon, mcp, bridge). A module
imports its own layer and the layers below, never one above; packages never import each
other in a circle.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise
from pathlib import Path

from test_layers import ROOT, imports

CORE = frozenset({
    "models", "errors", "config", "canonical", "citekey", "key_grammar", "trust",
    "sentences", "gcpause", "machine", "vault", "index_generation", "sync_conflicts",
    "schema", "statedb", "secrets", "record_store", "service_lock", "loopback",
    "samplepdf"})
DOMAIN = frozenset({
    "capture", "parse", "formats", "notes", "enrich", "video", "draft", "importers", "index",
    "lab",
    "library_bib"})
SERVICES = frozenset({"pipeline", "lookup", "verify"})
INTERFACES = frozenset({"cli", "daemon", "mcp", "bridge", "__main__"})
LAYER = {**dict.fromkeys(CORE, 0), **dict.fromkeys(DOMAIN, 1),
         **dict.fromkeys(SERVICES, 2), **dict.fromkeys(INTERFACES, 3)}
NAMES = ("core", "adapters/domains", "services", "interfaces")


def _unit(rel: Path) -> str:
    """``capture/bib.py`` → ``capture``; ``vault.py`` → ``vault``."""
    return rel.with_suffix("").parts[0]


def edges(root: Path = ROOT) -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) → ``file:line`` of each import between two units."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.name == "__init__.py" and rel.parent == Path():
            continue
        src = _unit(rel)
        for line, module in imports(path.read_text(encoding="utf-8"), rel):
            parts = module.split(".")
            if parts[0] != "vaultd" or len(parts) < 2:
                continue
            dst = parts[1]
            if dst != src and dst in LAYER:
                out[(src, dst)].append(f"vaultd/{rel}:{line}")
    return out


def test_every_unit_has_a_layer() -> None:
    units = {_unit(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")} - {"__init__"}
    assert units - set(LAYER) == set(), "give each new package or module a layer here"


def test_no_import_goes_up_a_layer() -> None:
    upward = [f"{where[0]}: {src} ({NAMES[LAYER[src]]}) imports {dst} ({NAMES[LAYER[dst]]})"
              for (src, dst), where in sorted(edges().items())
              if src in LAYER and LAYER[dst] > LAYER[src]]
    assert upward == []


def test_no_packages_import_each_other_in_a_circle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for src, dst in edges():
        graph[src].add(dst)
    circles: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt == path[0]:
                circles.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each circle once, from its least unit
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    where = edges()
    assert circles == [], "\n".join(
        " → ".join(c) + "  (" + "; ".join(where[pair][0] for pair in pairwise(c)) + ")"
        for c in circles)


def test_the_walk_finds_an_upward_import_and_a_circle(tmp_path: Path) -> None:
    (tmp_path / "capture").mkdir()
    (tmp_path / "capture" / "x.py").write_text(
        "def f():\n    from vaultd.pipeline import ingest\n", encoding="utf-8")
    (tmp_path / "pipeline").mkdir()
    (tmp_path / "pipeline" / "ingest.py").write_text("from vaultd.capture import x\n",
                                                     encoding="utf-8")
    found = edges(tmp_path)
    assert found[("capture", "pipeline")] == ["vaultd/capture/x.py:2"]
    assert found[("pipeline", "capture")] == ["vaultd/pipeline/ingest.py:1"]


def _module_of(rel: Path) -> str:
    parts = ["vaultd", *rel.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_modules_import_each_other_in_a_circle() -> None:
    """No file circle either (a function-local import included): a circle makes the
    order of imports matter and hides which module owns what."""
    modules = {_module_of(p.relative_to(ROOT)): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for _, imported in imports(path.read_text(encoding="utf-8"), path.relative_to(ROOT)):
            target = imported
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name and target != "vaultd":
                graph[name].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(modules):
        if v not in index:
            strong(v)
    assert circles == []
