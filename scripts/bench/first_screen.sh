#!/usr/bin/env bash
# BENCHMARK REFERENCE ONLY — not part of dpso's build or tests.
#
# Times the explorer's first full screen: from typing `dpso` into a shell
# in a 132×42 tmux pane (the tmux server and the shell already started) to
# the first capture that shows the parameters, the upper and lower rates,
# the certificate and the reproduce line (what .ci/tui-smoke waits for),
# polling the pane every 5 ms. Prints milliseconds, one line per run.
#
#   go build -o /tmp/dpso . && scripts/bench/first_screen.sh /tmp/dpso 10
set -euo pipefail
bin=${1:?usage: first_screen.sh DPSO [RUNS]}
runs=${2:-5}
sock="dpso-first-screen-$$"
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server >/dev/null 2>&1 || true' EXIT
full() {
  local s
  s=$(t capture-pane -p -t fs 2>/dev/null || true)
  for m in "Parameters" "upper rate" "lower rate" "certified ≤" "reproduce: dpso run"; do
    grep -qF -- "$m" <<<"$s" || return 1
  done
}
for _ in $(seq "$runs"); do
  t new-session -d -s fs -x 132 -y 42 "sh"
  until t capture-pane -p -t fs | grep -q .; do sleep 0.01; done
  start=$(date +%s%N)
  t send-keys -t fs "exec $bin" Enter
  until full; do sleep 0.005; done
  echo $((($(date +%s%N) - start) / 1000000))
  t kill-session -t fs
done
