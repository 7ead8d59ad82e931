# A call's name becomes a C symbol and is looked up by ctypes, so a name C or clang already
# means something by would lie: `exit` is a noreturn builtin whose body clang drops, `sin` is
# declared by <math.h>. The list is data (c_names.txt, derived from clang by
# tests/test_names.py); the rules without a list are a leading underscore (reserved in C, and
# ctypes' own attributes) and the prelude's helpers, read from the prelude itself.
PRELUDE_HELPERS = tuple(re.findall(r"^static inline \w+ (\w+)\(", PRELUDE, re.MULTILINE))
NAME_SECTIONS = {
    "keyword": "is a C keyword",
    "header": "is declared by a header the prelude includes",
    "builtin": "is a library function clang treats as a builtin",
}


def _read_name_rules(path: Path) -> dict:
    rules, section = {}, None
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("["):
            section = NAME_SECTIONS[line.strip("[]")]
        elif line and not line.startswith("#"):
            rules[line] = section
    return rules | {name: "names a helper of the prelude" for name in PRELUDE_HELPERS}


NAME_RULES = _read_name_rules(Path(__file__).with_name("c_names.txt"))


def _check_name(name) -> None:
    if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
        raise ValueError(f"render: the call's name {name!r} is not a C identifier")
    if name.startswith("_"):
        raise ValueError(f"render: the call's name '{name}' starts with an underscore")
    if name in NAME_RULES:
        raise ValueError(f"render: the call's name '{name}' {NAME_RULES[name]}")


