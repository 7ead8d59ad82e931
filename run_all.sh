#!/usr/bin/env bash
# The main job: set up, run every program, test, proof and benchmark of the book and save what
# each prints under out/, cut the listings into excerpts/, and compute out/numbers.json.
# Then `mkdocs build` makes the site from docs/ (see README.md).
#
#   ./run_all.sh                  the book's sizes: what is committed under out/ comes from this
#   ./run_all.sh --quick          quick sizes, for trying a change (a few minutes): the outputs that
#                                 do not depend on sizes go to out/ as usual (they are the same
#                                 bytes), the sized and timed ones (tests, proofs, planted bugs,
#                                 benchmark) to build/quick/out/, so out/ never holds quick counts
#                                 The planted-bug runs are left out of a quick run (each one
#                                 runs the test suite again: far over the few minutes); add
#                                 --with-mutants to run them at quick sizes all the same
#   ./run_all.sh --skip-mutants   reuse the saved planted-bug runs when their sources are unchanged
#   ./run_all.sh --deterministic-into DIR
#                                 only the outputs that must come out byte for byte the same,
#                                 written under DIR (used by scripts/check_stale.py)
#
# Every program runs through scripts/save_output.py (fixed environment, block files, sources
# hash). A program that is not written yet is skipped with a warning, repeated at the end.
# The benchmark runs last, on an otherwise idle machine: do not run other jobs meanwhile.
set -euo pipefail
cd "$(dirname "$0")"
repo=$(pwd -P)
started=$SECONDS

mode=full
skip_mutants=0
with_mutants=0
into=
while (($#)); do
    case $1 in
    --quick) mode=quick ;;
    --skip-mutants) skip_mutants=1 ;;
    --with-mutants) with_mutants=1 ;;
    --deterministic-into)
        mode=deterministic
        into=${2:?--deterministic-into needs a folder}
        shift
        ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "run_all.sh: unknown argument $1 (try --help)" >&2
        exit 2
        ;;
    esac
    shift
done

py=${PYTHON:-python}
out=$repo/out           # the outputs that do not depend on sizes or on the machine
slow_out=$repo/out      # the sized, slow and machine-dependent ones
excerpts=$repo/excerpts
case $mode in
quick) slow_out=$repo/build/quick/out ;;
deterministic)
    mkdir -p "$into"
    out=$(cd "$into" && pwd -P)
    slow_out=$out
    excerpts=$out/excerpts
    ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UOPC_CACHE=$work/cache # one fresh cache of compiled libraries for the whole run

skipped=()
say() { printf '\n== %s\n' "$*"; }
warn() { printf '\nrun_all.sh: WARNING: %s\n' "$*" >&2; }

exists() { # exists FILE: true when the program is there; a loud warning otherwise
    if [[ -f $1 ]]; then
        return 0
    fi
    warn "$1 is missing: its output is not regenerated"
    skipped+=("$1")
    return 1
}

save() { # save ROOT KIND STEM [save_output options] -- COMMAND...
    local root=$1
    shift
    "$py" scripts/save_output.py --root "$root" "$@"
}

# The sources hash recorded in a saved output against the current one, for --skip-mutants.
unchanged() { # unchanged FILE KEY
    [[ -f $1 ]] && "$py" - "$1" "$2" <<'EOF'
import sys
sys.path.insert(0, "scripts")
from pathlib import Path
from book_common import read_header, sources_hash
sys.exit(0 if read_header(Path(sys.argv[1])) == sources_hash(sys.argv[2]) else 1)
EOF
}

save_elapsed() { # save_elapsed DIR SECONDS: the whole run's time (book_common.RUN_RECORDS)
    mkdir -p "$1/tests"
    printf '{"seconds": %d}\n' "$2" >"$1/tests/run_all_time.json"
}

# --- set-up -----------------------------------------------------------------------------------
if [[ $mode != deterministic ]]; then
    say "set-up (scripts/setup.sh)"
    scripts/setup.sh
fi

# --- the short path: run from inside code/short/ ------------------------------------------------
say "the short path (code/short/)"
for program in code/short/s[0-9][0-9]_*.py; do
    stem=$(basename "$program" .py)
    save "$out" short "$stem" --cwd code/short -- "$py" "$stem.py"
done

# --- the demos ----------------------------------------------------------------------------------
say "the demos (demos/)"
for stem in run_demos walkthrough number_facts errors matcher fold order; do
    if exists "demos/$stem.py"; then
        save "$out" demos "$stem" -- "$py" "demos/$stem.py"
    fi
done
if [[ $mode != deterministic ]] && exists demos/tinygrad_demo.py; then
    # its output depends on tinygrad's version and the machine: out/bench/, with a sources hash
    save "$slow_out" bench tinygrad_demo -- "$py" demos/tinygrad_demo.py
fi

if [[ $mode != deterministic ]]; then
    # --- the tests, at the book's sizes (quick sizes with --quick) ---------------------------------
    size=(--full)
    [[ $mode == quick ]] && size=()
    say "the test suite (python -m pytest ${size[*]} -n 2), with its check counts"
    counts=$work/counts.txt
    : >"$counts"
    UOPC_COUNTS=$counts save "$slow_out" tests pytest --echo -- \
        "$py" -m pytest "${size[@]}" -n 2 -p no:cacheprovider
    # pytest's workers append in whatever order they finish: sorted, the file is the same each run
    save "$slow_out" tests counts -- sort "$counts"

    # --- the z3 proofs ----------------------------------------------------------------------------
    say "the z3 claims (tests/proofs.py)"
    if exists tests/proofs.py; then
        quick=()
        [[ $mode == quick ]] && quick=(--quick) # the book's sizes are its default
        save "$slow_out" proofs proofs --echo -- "$py" tests/proofs.py "${quick[@]}"
    fi

    # --- the planted bugs -------------------------------------------------------------------------
    for stem in mutants mutant_matrix; do
        say "the planted bugs (tests/$stem.py)"
        if [[ $mode == quick ]] && ((!with_mutants)); then
            warn "tests/$stem.py is left out of a quick run (add --with-mutants to run it)"
            continue
        elif ((skip_mutants)) && unchanged "$slow_out/tests/$stem.txt" "tests/$stem"; then
            echo "reusing out/tests/$stem.txt: its sources are unchanged (--skip-mutants)"
            continue
        elif ((skip_mutants)); then
            echo "--skip-mutants: out/tests/$stem.txt is missing or older than its sources: running"
        fi
        if exists "tests/$stem.py"; then
            full=(--full) # quick sizes are their default
            [[ $mode == quick ]] && full=()
            save "$slow_out" tests "$stem" --echo -- "$py" "tests/$stem.py" "${full[@]}"
        fi
    done
fi

# --- the exercises: after the planted bugs, whose saved matrix one answer reads ---------------
say "the exercise answers (code/exercises/solutions.py)"
if exists code/exercises/solutions.py; then
    save "$out" exercises solutions -- "$py" code/exercises/solutions.py
fi

if [[ $mode != deterministic ]]; then
    # --- last, on an idle machine: the benchmark and the machine it ran on -------------------------
    say "the benchmark (demos/bench.py), last"
    if exists demos/bench.py; then
        quick=()
        # quick: tiny timings, never quoted, so wall and cpu may disagree without stopping it
        [[ $mode == quick ]] && quick=(--quick --busy)
        save "$slow_out" bench bench --echo -- \
            "$py" demos/bench.py "${quick[@]}" --json "$slow_out/bench/bench.json"
    fi
    if exists scripts/machine_info.py; then
        save "$slow_out" bench machine_info -- "$py" scripts/machine_info.py
    fi
fi

# --- what is computed from the saved outputs ----------------------------------------------------
say "the summary of the checks (scripts/summary.py)"
missing=()
[[ $mode == quick ]] && missing=(--allow-missing)
if exists "$slow_out/tests/counts.txt"; then
    save "$slow_out" tests summary -- "$py" scripts/summary.py "$slow_out/tests/counts.txt" \
        --proofs "$slow_out/proofs/proofs.txt" --mutants "$slow_out/tests/mutants.txt" \
        "${missing[@]}"
fi

say "the figures (scripts/make_figures.py)"
data=()
[[ -f $out/bench/bench.json ]] && data=(--data "$out/bench/bench.json")
"$py" scripts/make_figures.py --out "$out/figures" "${data[@]}"

say "the listings (scripts/make_excerpts.py) and the numbers (scripts/make_numbers.py)"
"$py" scripts/make_excerpts.py --out "$excerpts"
if [[ $mode == full ]] && ((!skip_mutants)); then
    # the time of a whole full run, for README and appendix C (a run that reused the planted-bug
    # outputs, or a quick one, is not the whole run: the last whole run's time stays)
    save_elapsed "$out" $((SECONDS - started))
fi
"$py" scripts/make_numbers.py --out "$out"

if ((${#skipped[@]})); then
    warn "these programs or inputs are missing, so their outputs were not regenerated:"
    printf '    %s\n' "${skipped[@]}" >&2
fi
elapsed=$((SECONDS - started))
printf '\nrun_all.sh (%s): done in %dm%02ds\n' "$mode" $((elapsed / 60)) $((elapsed % 60))
