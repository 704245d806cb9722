"""The layers hold (docs/architecture.md, "Rules"): the long-running interfaces never
import each other, and what they share does not import them back.

Every import counts, at module level or inside a function, relative or absolute, under
``TYPE_CHECKING`` or through ``importlib.import_module("...")``: an import hidden in a
function is still a tie. `vaultd run` (cli/run_cmd) composes the three.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import vaultd

ROOT = Path(vaultd.__file__).resolve().parent

#: package (or module) of vaultd → the packages it must not import.
FORBIDDEN: dict[str, frozenset[str]] = {
    "daemon": frozenset({"mcp", "bridge", "cli"}),
    "mcp": frozenset({"daemon", "bridge", "cli"}),
    "bridge": frozenset({"daemon", "mcp", "cli"}),
    # Shared by the interfaces: importing one of them would tie the others to it.
    "loopback": frozenset({"daemon", "mcp", "bridge", "cli"}),
    "service_lock": frozenset({"daemon", "mcp", "bridge", "cli"}),
}


def _package_of(rel: Path) -> list[str]:
    """``mcp/http.py`` → ``["vaultd", "mcp"]``: where a relative import in it starts."""
    return ["vaultd", *rel.parent.parts]


def imports(source: str, rel: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import in ``source`` (the file ``rel`` under vaultd/),
    wherever it is written."""
    package = _package_of(rel)
    for node in ast.walk(ast.parse(source, str(rel))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package[:len(package) - node.level + 1]
                base = ".".join([*stem, base] if base else stem)
            for alias in node.names:  # `from vaultd import mcp` imports vaultd.mcp
                yield node.lineno, f"{base}.{alias.name}"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def violations(root: Path = ROOT) -> list[str]:
    """One line per forbidden import under ``root`` (a vaultd/ tree), in file and line order."""
    found: list[tuple[Path, int, str]] = []
    paths = [p for name in FORBIDDEN
             for p in ([root / f"{name}.py"] if (root / f"{name}.py").is_file()
                       else (root / name).rglob("*.py"))]
    for path in paths:
        rel = path.relative_to(root)
        forbidden = FORBIDDEN[rel.with_suffix("").parts[0]]
        for line, module in imports(path.read_text(encoding="utf-8"), rel):
            parts = module.split(".")
            if parts[0] == "vaultd" and len(parts) > 1 and parts[1] in forbidden:
                found.append((rel, line, module))
    return [f"vaultd/{rel}:{line} imports {module}: {rel.with_suffix('').parts[0]} must not "
            f"import {module.split('.')[1]}/ (cli/run_cmd composes the interfaces and hands "
            "them what they need; what they share goes in vaultd/loopback/ or a core module)"
            for rel, line, module in sorted(found)]


def test_daemon_mcp_and_bridge_never_import_each_other_or_the_cli() -> None:
    assert violations() == []


def test_the_walk_sees_imports_in_functions_relative_and_by_name(tmp_path: Path) -> None:
    pkg = tmp_path / "mcp"
    pkg.mkdir()
    (pkg / "server.py").write_text(
        "import json\n"
        "def tool():\n"
        "    from vaultd.daemon.status import collect_status\n"
        "    from ..bridge import guard\n"
        "    from vaultd import cli\n"
        "    importlib.import_module('vaultd.daemon.runner')\n", encoding="utf-8")
    (pkg / "ok.py").write_text("from vaultd.loopback.guard import check_host\n"
                               "from . import server\n", encoding="utf-8")
    found = violations(tmp_path)
    assert [f.split(" imports ")[0] for f in found] == [
        "vaultd/mcp/server.py:3", "vaultd/mcp/server.py:4", "vaultd/mcp/server.py:5",
        "vaultd/mcp/server.py:6"]
    assert "imports vaultd.bridge.guard: mcp must not import bridge/" in found[1]
