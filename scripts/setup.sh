#!/usr/bin/env bash
# Installs what the book, the tests and the site need, and only what is missing (README.md, "The
# two commands"): the Python packages of requirements*.txt, uopc in editable mode, and the Debian
# packages clang (with its sanitizer runtime), graphviz (with its font) and chromium. A second
# run installs nothing and prints nothing; run as another user than root, it names the Debian
# packages to install and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd -P)
export DEBIAN_FRONTEND=noninteractive
export PIP_ROOT_USER_ACTION=ignore # pip's "running as root" warning (machines here run as root)

say() { echo "setup.sh: $*" >&2; }

py=${PYTHON:-python}
[[ -n ${PYTHON:-} ]] || command -v python >/dev/null 2>&1 || py=python3
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "needs Python >= 3.11 as '$py' (set PYTHON=... to choose another interpreter)"
    exit 1
fi

# --- Debian packages --------------------------------------------------------------------------

apt_missing=()

deb_installed() { # true when dpkg knows the package as installed
    command -v dpkg-query >/dev/null 2>&1 &&
        [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

sanitizers_link() { # true when clang builds and runs a program with UBSan + ASan
    local dir ok=1
    dir=$(mktemp -d)
    printf 'int main(void) { return 0; }\n' >"$dir/t.c"
    if clang -fsanitize=undefined,address -o "$dir/t" "$dir/t.c" >/dev/null 2>&1 &&
        "$dir/t" >/dev/null 2>&1; then
        ok=0
    fi
    rm -rf "$dir"
    return $ok
}

if ! command -v clang >/dev/null 2>&1; then
    # libclang-rt-dev is Debian's sanitizer runtime for its default clang (14 on Debian 12).
    apt_missing+=(clang libclang-rt-dev)
else
    clang_major=$(clang -dumpversion | cut -d. -f1)
    if ! deb_installed "libclang-rt-$clang_major-dev" && ! sanitizers_link; then
        apt_missing+=("libclang-rt-$clang_major-dev")
    fi
fi
command -v dot >/dev/null 2>&1 || apt_missing+=(graphviz)
# graphviz only recommends its font; without it dot measures labels with another font and the
# SVG figures come out different from the committed ones.
if command -v dpkg-query >/dev/null 2>&1 && ! deb_installed fonts-liberation2; then
    apt_missing+=(fonts-liberation2)
fi
command -v chromium >/dev/null 2>&1 || apt_missing+=(chromium)

if ((${#apt_missing[@]})); then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
        say "missing system packages: ${apt_missing[*]}"
        say "install them as root, for example:"
        say "    apt-get update && apt-get install -y --no-install-recommends ${apt_missing[*]}"
        exit 1
    fi
    say "installing ${apt_missing[*]} (apt-get)"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
    if ! sanitizers_link; then
        say "clang still cannot link -fsanitize=undefined,address"
        exit 1
    fi
fi

# --- Python packages --------------------------------------------------------------------------

# Exit status 0 when every requirement is installed at an allowed version (pins compared exactly).
check_requirements='
import re, sys
from importlib.metadata import PackageNotFoundError, version
try:
    from packaging.specifiers import SpecifierSet
except ImportError:
    sys.exit(1)
for line in [*open("requirements.txt"), *open("requirements-site.txt")]:
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, spec = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", line).groups()
    try:
        have = version(name)
    except PackageNotFoundError:
        sys.exit(1)
    if have not in SpecifierSet(spec):
        sys.exit(1)
import pytest, xdist, numpy, z3, mkdocs, material, playwright, matplotlib, tinygrad  # noqa
import mkdocstrings, mkdocstrings_handlers.python, mkdocs_glightbox  # noqa
'
if ! "$py" -c "$check_requirements" >/dev/null 2>&1 || ! "$py" -m ruff --version >/dev/null 2>&1; then
    say "installing Python packages (requirements.txt, requirements-site.txt)"
    "$py" -m pip install -q -r requirements.txt -r requirements-site.txt
fi

# uopc in editable mode, checked from / so that this folder's uopc/ is not found through the cwd.
# An install that another checkout made is left where it is: moving it would make that
# checkout's scripts import this one's code (book/own_tree.py).
if [[ ! -d uopc ]]; then
    say "no uopc/ folder yet: skipping its editable install"
else
    where=$(cd / && "$py" -c 'import os, uopc; print(os.path.realpath(os.path.dirname(uopc.__file__)))' 2>/dev/null || true)
    if [[ -z $where ]]; then
        say "installing uopc (editable, from $repo)"
        "$py" -m pip install -q --no-deps -e .
    elif [[ $where == "$repo/uopc" ]] && ! (cd / && "$py" -c 'import book, verify' 2>/dev/null); then
        # an install made before a package joined pyproject.toml's list
        say "reinstalling uopc (editable, from $repo): a package of this checkout was missing"
        "$py" -m pip install -q --no-deps -e .
    elif [[ $where != "$repo/uopc" ]]; then
        say "uopc is installed from $where, not from this checkout; left as it is."
        say "run this checkout's code with PYTHONPATH=$repo (or move the install here:"
        say "    $py -m pip install --no-deps -e $repo)"
    fi
fi

# --- the site's one vendored script -----------------------------------------------------------

# The iframe-worker shim (search from file://) is committed under docs/assets/iframe-worker/;
# it is taken from the npm registry again only when that copy is missing.
if [[ -d docs && ! -f docs/assets/iframe-worker/shim.js ]]; then
    if ! command -v npm >/dev/null 2>&1; then
        say "docs/assets/iframe-worker/shim.js is missing; install npm, then run"
        say "    scripts/vendor_iframe_worker.sh"
        exit 1
    fi
    say "fetching the iframe-worker shim (npm pack)"
    scripts/vendor_iframe_worker.sh >/dev/null
fi
