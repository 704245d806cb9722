"""An import inside a function says why (docs/architecture.md, "Lazy imports").

vaultd imports at the top of a module unless start-up time is measured to need otherwise
(or the import is of an optional dependency). Such an import carries its reason in a fixed
form, ``# lazy: <reason>``, on the import's own line or on a comment line directly above
it, one per import: e.g.
``# lazy: pymupdf costs 173 ms at import``. Imports under ``if TYPE_CHECKING:`` are not
run and need no reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from test_layers import ROOT

REASON = re.compile(r"#\s*lazy:\s*\S")
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def function_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement inside a function body, outside ``if TYPE_CHECKING:``."""
    def walk(node: ast.AST, in_function: bool) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                for other in child.orelse:
                    yield from walk_one(other, in_function)
                continue
            yield from walk_one(child, in_function)

    def walk_one(node: ast.AST, in_function: bool) -> Iterator[ast.Import | ast.ImportFrom]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            if in_function:
                yield node
            return
        yield from walk(node, in_function or isinstance(node, FUNCTIONS))

    yield from walk(tree, False)


def unexplained(source: str, name: str) -> list[str]:
    """``name:line  statement`` of each function-local import in ``source`` without a
    ``# lazy:`` reason."""
    lines = source.splitlines()
    tree = ast.parse(source, name)
    found = []
    for node in function_imports(tree):
        own = lines[node.lineno - 1:node.end_lineno]
        above = lines[node.lineno - 2] if node.lineno > 1 else ""
        if any(REASON.search(line) for line in own) or (
                above.lstrip().startswith("#") and REASON.search(above)):
            continue
        found.append(f"{name}:{node.lineno}  {ast.unparse(node)}")
    return found


def test_every_import_inside_a_function_says_why() -> None:
    missing = [hit for path in sorted(ROOT.rglob("*.py"))
               for hit in unexplained(path.read_text(encoding="utf-8"),
                                      f"vaultd/{path.relative_to(ROOT)}")]
    assert missing == [], (
        "imports inside a function without a reason; move each to the top of its module, "
        "or, if start-up time needs it there, add `# lazy: <what it costs>` on the line "
        "or just above it (docs/architecture.md, \"Lazy imports\"):\n  " + "\n  ".join(missing))


def test_the_walk_finds_an_unexplained_import_and_accepts_a_reason() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "if TYPE_CHECKING:\n"
        "    from vaultd.vault import Vault\n"
        "def f():\n"
        "    import yaml\n"
        "    import numpy  # lazy: numpy costs 250 ms at import\n"
        "    # lazy: httpx costs 300 ms at import\n"
        "    import httpx\n"
        "    from pydantic import (\n"
        "        BaseModel,\n"
        "    )\n"
        "    # lazy: apsw costs 8 ms at import\n"
        "    import apsw\n"
        "    import sqlite_vec\n"
        "    x = 1\n"
        "    import rich\n"
        "    g = lambda: __import__('os')\n"
        "class C:\n"
        "    def m(self):\n"
        "        if TYPE_CHECKING:\n"
        "            from vaultd.models import Work\n"
        "        import click\n")
    assert unexplained(source, "x.py") == [
        "x.py:6  import yaml", "x.py:10  from pydantic import BaseModel",
        "x.py:15  import sqlite_vec", "x.py:17  import rich", "x.py:23  import click"]
