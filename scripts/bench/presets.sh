#!/usr/bin/env bash
# BENCHMARK REFERENCE ONLY — not part of dpso's build or tests.
#
# Times what a lecturer waits for in the explorer, through the command
# lines the explorer's status bar shows for it: r (the form's run, with the
# preset's versus solvers beside it) and c (the comparison: the class's
# paper solver and every baseline, on the same draws) of every preset, and
# the tuning screen's search (g) on presets 1 and 9 — the private search
# alone (--references=false: what the screen can show first) and the whole
# screen (with the prescribed and oracle-tuned references), and on preset
# 1 the search with the coarse oracle alone (--oracle-grid coarse: the
# prescribed run and the reference over the coarse grid, which the
# explorer shows first; the explorer then runs the rest of the grid). The
# screen's stages one by one, in one process: `go test ./internal/engine
# -run '^$' -bench TuneStages -benchtime 1x` on preset 1.
#
# Each command runs RUNS times, the commands interleaved round by round
# (r₁ c₁ r₂ c₂ … then again), so that a drift in the machine's load falls
# on all of them alike; a row is the median wall and CPU (user + system)
# seconds over the rounds, from /usr/bin/time. The load average (uptime) is
# printed before and after: timings taken under load say so.
#
#   go build -o /tmp/dpso . && scripts/bench/presets.sh /tmp/dpso 3
#
# The presets' flags are those of tui/presets (Spec.Args, the reproduce
# line); a changed preset changes its line here too. Preset 9's r and c
# are preset 2's (the same flags), so they are not run twice.
set -euo pipefail
bin=${1:?usage: presets.sh DPSO [RUNS] [FILTER]}
runs=${2:-3}
filter=${3:-}
base="nonprivate-schedule,lipschitz-dpsgd,klz-gd,dp-sgd"
# name | dpso arguments
cmds=(
  "1 r|run --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8 --solvers acsa,lipschitz-dpsgd"
  "1 c|run --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8 --solvers acsa,$base"
  "2 r|run --scenario linreg-t --class smooth-sc --solver clipped-sgd"
  "2 c|run --scenario linreg-t --class smooth-sc --solvers clipped-sgd,$base"
  "3 r|run --scenario example1 --n 100000 --trials 8 --solver acsa"
  "3 c|run --scenario example1 --n 100000 --trials 8 --solvers acsa,$base"
  "4 r|run --scenario linreg-t --n 200000 --tail 10 --trials 8 --solver acsa"
  "4 c|run --scenario linreg-t --n 200000 --tail 10 --trials 8 --solvers acsa,$base"
  "5 r|run --scenario affine-hard --n 10000 --trials 4 --solver localized"
  "5 c|run --scenario affine-hard --n 10000 --trials 4 --solvers localized,$base"
  "6 r|run --scenario hinge-t --trials 4 --solver localized"
  "6 c|run --scenario hinge-t --trials 4 --solvers localized,$base"
  "7 r|run --scenario lasso-t --n 1000000 --trials 8 --solver prox-sgd"
  "7 c|run --scenario lasso-t --n 1000000 --trials 8 --solvers prox-sgd,$base"
  "8 r|run --scenario mean-hard --trials 8 --solver clipped-sgd"
  "8 c|run --scenario mean-hard --trials 8 --solvers clipped-sgd,$base"
  "1 g private|tune --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8 --references=false"
  "1 g coarse|tune --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8 --oracle-grid coarse"
  "1 g|tune --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8"
  "9 g private|tune --scenario linreg-t --class smooth-sc --references=false"
  "9 g|tune --scenario linreg-t --class smooth-sc"
)
if [[ -n $filter ]]; then
  kept=()
  for c in "${cmds[@]}"; do [[ ${c%%|*} =~ $filter ]] && kept+=("$c"); done
  cmds=("${kept[@]}")
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "# $(date -u '+%F %T') UTC, $(nproc) cores; load before:$(uptime | sed 's/.*load average://')"
for round in $(seq "$runs"); do
  for i in "${!cmds[@]}"; do
    args=${cmds[$i]#*|}
    # shellcheck disable=SC2086 # the arguments are words
    /usr/bin/time -f '%e %U %S' -o "$dir/t" "$bin" $args >/dev/null 2>"$dir/err" ||
      { echo "failed: dpso $args" >&2; cat "$dir/err" >&2; exit 1; }
    echo "$(cat "$dir/t")" >>"$dir/$i"
  done
  echo "# round $round done; load:$(uptime | sed 's/.*load average://')" >&2
done
echo "# load after:$(uptime | sed 's/.*load average://')"
echo "| preset | key | wall s (median) | CPU s (median) | command |"
echo "|---|---|---|---|---|"
for i in "${!cmds[@]}"; do
  name=${cmds[$i]%%|*}
  args=${cmds[$i]#*|}
  read -r wall cpu < <(python3 - "$dir/$i" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print(f"{statistics.median(r[0] for r in rows):.2f} {statistics.median(r[1] + r[2] for r in rows):.2f}")
PY
)
  echo "| ${name%% *} | ${name#* } | $wall | $cpu | \`dpso $args\` |"
done
