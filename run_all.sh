#!/usr/bin/env bash
# The main job: install what is missing, then make the book's outputs: run every program of
# book/producers.py whose sources changed since its saved output, draw the figures, cut the
# listings into excerpts/ and merge the numbers into out/numbers.json. Then `mkdocs build`
# makes the site from docs/ (see README.md).
#
#   ./run_all.sh                  the book's sizes; only what changed is run again
#   ./run_all.sh --force          every program again (a whole rebuild; its time is recorded
#                                 in out/tests/run_all_time.json for appendix C)
#   ./run_all.sh --quick          quick sizes, for trying a change: the outputs that do not
#                                 depend on sizes go to out/ (the same bytes), the sized and
#                                 timed ones to build/quick/out/, so out/ never holds quick
#                                 counts; the planted bugs are left out (--with-mutants adds them)
#   ./run_all.sh --only NAME ...  those programs only ("demos/order", "short/s05"), forced
#   ./run_all.sh --deterministic-into DIR
#                                 only the outputs that must come out byte for byte the same,
#                                 all of them, under DIR (used by scripts/check_stale.py)
#
# The work is done by scripts/build_book.py; each program runs through scripts/save_output.py
# (fixed environment, block files, numbers, atomic writes). The benchmark runs last, on an
# otherwise idle machine: do not run other jobs meanwhile.
set -euo pipefail
cd "$(dirname "$0")"
# This tree's uopc, whatever another checkout installed (scripts/build_book.py checks it)
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export RUN_ALL_STARTED=${RUN_ALL_STARTED:-$(date +%s)}

case " $* " in
*" -h "* | *" --help "*)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
*" --deterministic-into "*) ;; # the staleness check: nothing to install
*)
    printf '\n== set-up (scripts/setup.sh)\n'
    scripts/setup.sh
    ;;
esac
exec "${PYTHON:-python}" scripts/build_book.py "$@"
