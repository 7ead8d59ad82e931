#!/usr/bin/env bash
# The main job: install what is missing (scripts/setup.sh), then make the book's outputs with
# scripts/build_book.py: every program of book/producers.py whose sources changed (each through
# scripts/save_output.py), the figures, the listings and the numbers. `mkdocs build` then makes
# the site. --help lists the options; README.md says more. The benchmark runs last, on an
# otherwise idle machine: do not run other jobs meanwhile.
set -euo pipefail
cd "$(dirname "$0")"
# This tree's uopc, whatever another checkout installed (scripts/build_book.py checks it)
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export RUN_ALL_STARTED=${RUN_ALL_STARTED:-$(date +%s)}

case " $* " in
*" -h "* | *" --help "*) ;;                # build_book.py's options
*" --deterministic-into "*) ;;             # the staleness check: nothing to install
*)
    printf '\n== set-up (scripts/setup.sh)\n'
    scripts/setup.sh
    ;;
esac
exec "${PYTHON:-python}" scripts/build_book.py "$@"
