"""The names a CALL may not take (issue 11): the renderer refuses every C keyword, every name
that starts with an underscore, every name the prelude's headers declare, every library
function clang treats as a builtin, and the prelude's own helpers; each with one line naming
the rule.

The list is data, `uopc/c_names.txt`. Its derived parts come from clang on this machine: this
file derives them again and checks that the list still holds every one. After a compiler or
C library upgrade, `python tests/test_names.py --write` writes the list anew.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import uopc.render
from book.protocol import report
from uopc import F32, CallArg, Ops, ParamArg, UOp, runtime
from uopc.render import NAME_RULES, PRELUDE, PRELUDE_HELPERS, render

needs_clang = pytest.mark.skipif(shutil.which(runtime.CC) is None, reason="clang is not installed")
LIST = Path(uopc.render.__file__).with_name("c_names.txt")

# C11 and C23 keywords, clang's `asm`, and `main` (the program's entry point, whose type C fixes)
KEYWORDS = """
auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while alignas alignof bool constexpr false nullptr static_assert
thread_local true typeof typeof_unqual asm main
""".split()
# every header of C11; their functions are the candidates for clang's library builtins
STANDARD_HEADERS = """
assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign
stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath time uchar wchar
wctype
""".split()


def clang(*args, source: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "names.c"
        path.write_text(source)
        flags = ["-std=c11", "-fsyntax-only"]
        return subprocess.run(
            [runtime.CC, *flags, *args, str(path)], capture_output=True, text=True
        )


def top_level_names(source: str) -> set:
    """Every name declared at file scope by source: functions, variables, types, enum values."""
    tree = json.loads(clang("-Xclang", "-ast-dump=json", source=source).stdout)
    names = set()
    for decl in tree["inner"]:
        names.add(decl.get("name"))
        if decl["kind"] == "EnumDecl":
            names.update(item.get("name") for item in decl.get("inner", []))
    return {name for name in names if name}


def macro_names(source: str) -> set:
    lines = clang("-E", "-dM", source=source).stdout.splitlines()
    return {re.match(r"#define (\w+)", line).group(1) for line in lines}


def header_part(source: str) -> str:
    return source.split("\n\n", 1)[0] + "\n"  # the #include lines of the prelude


def declared_by_prelude_headers() -> set:
    headers = header_part(PRELUDE)
    names = top_level_names(headers) | macro_names(headers)
    return {name for name in names if not name.startswith("_")}


REDECLARED = re.compile(r"incompatible redeclaration of library function '(\w+)'")


def clang_builtins() -> set:
    """The standard library functions clang knows by name: defined with a type other than the
    library's (twice, with two types, so that no signature matches by chance), each gives a
    warning `incompatible redeclaration of library function`."""
    includes = "".join(f"#include <{header}.h>\n" for header in STANDARD_HEADERS)
    tree = json.loads(clang("-Xclang", "-ast-dump=json", source=includes).stdout)
    candidates = sorted(
        {d["name"] for d in tree["inner"] if d["kind"] == "FunctionDecl"} - {"main"}
    )
    found = set()
    for signature in ("float {}(float x) {{ return x; }}", "char {}(char *x) {{ return 0; }}"):
        source = "\n".join(signature.format(name) for name in candidates if name[0] != "_")
        warnings = clang(source=source + "\n").stderr
        found |= set(REDECLARED.findall(warnings))
    return found


def derived_sections() -> dict:
    return {
        "keyword": set(KEYWORDS),
        "header": declared_by_prelude_headers() - set(PRELUDE_HELPERS),
        "builtin": clang_builtins(),
    }


def write_list() -> None:
    version = runtime.compiler_version(runtime.CC)
    lines = [
        "# The names a CALL may not take (uopc/render.py reads this; names with a leading",
        "# underscore and the prelude's helpers are refused by rule, not listed here).",
        f"# Derived by `python tests/test_names.py --write` with {version}.",
    ]
    taken = set()
    for section, names in derived_sections().items():
        lines.append(f"[{section}]")
        lines += sorted(names - taken)
        taken |= names
    LIST.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------
# the list against clang, and the renderer's refusals
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_the_list_holds_every_derived_name():
    checks = 0
    for section, names in derived_sections().items():
        missing = sorted(names - set(NAME_RULES))
        assert not missing, f"{section}: {missing[:10]}; run python tests/test_names.py --write"
        checks += len(names)
    report("reliability", "call-names", checks)


def test_the_prelude_helpers_are_found():
    assert set(PRELUDE_HELPERS) == {"floordiv_i32", "floormod_i32", "f32_to_i32"}


def call_named(name):
    x = UOp(Ops.PARAM, (), ParamArg(0, F32))
    return UOp(Ops.CALL, (x, UOp.const(1.0)), CallArg(name))


@pytest.mark.parametrize(
    "name, rule",
    [
        ("int", "is a C keyword"),
        ("return", "is a C keyword"),
        ("main", "is a C keyword"),
        ("_Exit", "starts with an underscore"),
        ("_FuncPtr", "starts with an underscore"),
        ("_handle", "starts with an underscore"),
        ("_name", "starts with an underscore"),
        ("__init__", "starts with an underscore"),
        ("exit", "is a library function clang treats as a builtin"),
        ("abort", "is a library function clang treats as a builtin"),
        ("printf", "is a library function clang treats as a builtin"),
        ("sin", "is declared by a header the prelude includes"),
        ("NAN", "is declared by a header the prelude includes"),
        ("INT32_MAX", "is declared by a header the prelude includes"),
        ("isnan", "is declared by a header the prelude includes"),
        ("floordiv_i32", "names a helper of the prelude"),
        ("f32_to_i32", "names a helper of the prelude"),
    ],
)
def test_a_name_that_would_lie_is_refused(name, rule):
    with pytest.raises(ValueError) as refused:
        render(call_named(name))
    message = str(refused.value)
    assert message == f"render: the call's name '{name}' {rule}" and "\n" not in message


@pytest.mark.parametrize("name", ["relu", "add3", "kernel", "div", "f", "saxpy_2", "Main"])
def test_ordinary_names_pass(name):
    assert f" {name}(" in render(call_named(name))


@needs_clang
@pytest.mark.parametrize("name", ["relu_exit", "sinx", "kernel"])
def test_an_accepted_name_runs(monkeypatch, tmp_path, name):
    monkeypatch.setattr(runtime, "CACHE_DIR", str(tmp_path / "cache"))
    assert runtime.Program(call_named(name))(2.5) == 2.5


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_list()
        print(f"wrote {LIST}")
    else:
        sys.exit(pytest.main([__file__, "-q"]))
