"""Imports flow one way (spec §1, style.md): each module of `uopc` imports only modules earlier
in the README's module order, the speed overlay (`uopc/speed/`) imports taught modules and never
the reverse, no module assigns into another module's namespace (the overlay's `install` aside),
and none imports numpy or z3. Read with `ast`, so nothing is executed and modules not yet
written are simply skipped; one test imports each module first in a fresh process, to show that
it loads and that the type checker is in place.
"""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "uopc"
README = PACKAGE.parent / "README.md"


def readme_order() -> list[str]:
    """The module names of the README's list, between its two markers, in order."""
    text = README.read_text(encoding="utf-8")
    listed = text.split("<!-- module order -->")[1].split("<!-- end module order -->")[0]
    return [Path(name).stem for name in re.findall(r"`([\w/]+\.py)`", listed)]


BOOK_ORDER = readme_order()
SPEED = sorted(path.stem for path in (PACKAGE / "speed").glob("*.py"))
FREE = ["__init__", "__main__"]  # may import any module of the package
CORE = ["ops", "dtypes", "semantics", "ranges", "uop", "typecheck"]
FORBIDDEN = {"numpy", "z3"}


def imports_of(source: str) -> tuple[set[str], set[str]]:
    """(modules of uopc imported, top-level names of outside packages imported)."""
    inside, outside = set(), set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "uopc":
                    inside.add(parts[1] if len(parts) > 1 else "__init__")
                else:
                    outside.add(parts[0])
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") if node.module else []
            if node.level == 0 and parts[0] != "uopc":
                outside.add(parts[0])
                continue
            if node.level == 0:
                parts = parts[1:]  # from uopc.x import ... / from uopc import x
            if parts:
                inside.add(parts[0])
            else:  # from . import x, from uopc import x: a module, or a name of __init__
                modules = BOOK_ORDER + FREE + ["speed"]
                inside.update(a.name if a.name in modules else "__init__" for a in node.names)
    return inside, outside


@pytest.mark.parametrize("source, inside, outside", [
    ("from .uop import UOp", {"uop"}, set()),
    ("from .ranges import fill_ranges", {"ranges"}, set()),
    ("from . import speed", {"speed"}, set()),
    ("from . import uop", {"uop"}, set()),
    ("from uopc.typecheck import infer", {"typecheck"}, set()),
    ("from . import ops", {"ops"}, set()),
    ("from . import ops, dtypes", {"ops", "dtypes"}, set()),
    ("from uopc.rewrite import UPat", {"rewrite"}, set()),
    ("from uopc import symbolic", {"symbolic"}, set()),
    ("from uopc import UOp", {"__init__"}, set()),
    ("from . import UOp, ops", {"__init__", "ops"}, set()),
    ("import uopc", {"__init__"}, set()),
    ("import uopc.render", {"render"}, set()),
    ("import uopc.render as r", {"render"}, set()),
    ("from .textfmt.sub import x", {"textfmt"}, set()),
    ("import numpy as np", set(), {"numpy"}),
    ("from numpy.random import default_rng", set(), {"numpy"}),
    ("import z3", set(), {"z3"}),
    ("def f():\n    import z3\n", set(), {"z3"}),
    ("import math, struct", set(), {"math", "struct"}),
])  # fmt: skip
def test_imports_of(source, inside, outside):
    assert imports_of(source) == (inside, outside)


def module_source(name):
    path = PACKAGE / f"{name}.py"
    if not path.exists():
        pytest.skip(f"uopc/{name}.py is not written yet")
    return path.read_text()


@pytest.mark.parametrize("name", CORE)
def test_core_modules_exist(name):
    assert (PACKAGE / f"{name}.py").is_file()


def test_every_module_has_a_place_in_the_order():
    present = {path.stem for path in PACKAGE.glob("*.py")}
    assert present <= set(BOOK_ORDER + FREE), sorted(present - set(BOOK_ORDER + FREE))
    assert BOOK_ORDER[:3] == ["ops", "dtypes", "semantics"] and len(BOOK_ORDER) == 15


def test_no_taught_module_imports_the_overlay():
    for name in BOOK_ORDER:
        inside, _ = imports_of(module_source(name))
        assert "speed" not in inside, name


@pytest.mark.parametrize("name", SPEED)
def test_the_overlay_imports_taught_modules_and_itself_only(name):
    source = (PACKAGE / "speed" / f"{name}.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 2:  # from ..ops import Ops
            module = (node.module or "").split(".")[0]
            names = [module] if module else [a.name for a in node.names]
            assert set(names) <= set(BOOK_ORDER), (name, names)
        elif isinstance(node, ast.ImportFrom) and node.level == 1:  # from .node import ...
            module = (node.module or "").split(".")[0]
            names = [module] if module else [a.name for a in node.names]
            assert set(names) <= set(SPEED), (name, names)


def assignments_into_modules(source: str) -> list[str]:
    """Targets such as `uop.infer = ...` or `setattr(ranges, ...)`: a name of another module
    assigned from outside it."""
    tree = ast.parse(source)
    modules = {alias.asname or alias.name for node in ast.walk(tree)
               if isinstance(node, ast.ImportFrom) for alias in node.names
               if alias.name in BOOK_ORDER + SPEED}  # fmt: skip
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                if target.value.id in modules:
                    found.append(f"{target.value.id}.{target.attr}")
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr":
            found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("name", BOOK_ORDER + FREE)
def test_no_module_assigns_into_another(name):
    assert assignments_into_modules(module_source(name)) == []


def test_only_install_assigns_into_other_modules():
    source = (PACKAGE / "speed" / "__init__.py").read_text()
    tree = ast.parse(source)
    for function in [n for n in tree.body if isinstance(n, ast.FunctionDef)]:
        if function.name not in ("install", "uninstall"):
            assert assignments_into_modules(ast.unparse(function)) == [], function.name
    for name in SPEED:
        if name != "__init__":
            assert assignments_into_modules((PACKAGE / "speed" / f"{name}.py").read_text()) == []
    assert "setattr(where, name, twin)" in source  # the one place, and it is there


@pytest.mark.parametrize("position, name", list(enumerate(BOOK_ORDER)), ids=BOOK_ORDER)
def test_imports_only_earlier_modules(position, name):
    inside, _ = imports_of(module_source(name))
    allowed = set(BOOK_ORDER[:position])
    assert inside <= allowed, f"{name} imports {sorted(inside - allowed)}"


@pytest.mark.parametrize("name", FREE)
def test_entry_modules_import_only_package_modules(name):
    inside, _ = imports_of(module_source(name))
    allowed = set(BOOK_ORDER) | {"__init__", "speed"}
    assert inside <= allowed, sorted(inside - allowed)


@pytest.mark.parametrize("name", BOOK_ORDER + FREE)
def test_no_numpy_or_z3(name):
    _, outside = imports_of(module_source(name))
    assert not outside & FORBIDDEN, sorted(outside & FORBIDDEN)


@pytest.mark.parametrize("name", BOOK_ORDER)
def test_each_module_loads_first_with_the_checker_in_place(name):
    """Imported first in a fresh interpreter, the module loads, the overlay is installed, and
    UOp's constructor calls the type checker."""
    module_source(name)
    code = (
        f"import uopc.{name}, uopc.speed\n"
        "assert uopc.speed.installed()\n"
        "from uopc import Ops, UOp, UOpError\n"
        "try:\n    UOp(Ops.ADD, (UOp.const(1), UOp.const(1.0)))\n"
        "except UOpError:\n    pass\n"
        "else:\n    raise AssertionError('an ill-typed ADD was built')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
