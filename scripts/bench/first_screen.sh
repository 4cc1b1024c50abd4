#!/usr/bin/env bash
# BENCHMARK REFERENCE ONLY — not part of dpso's build or tests.
#
# Times the explorer's first full screen: from the start of the process in
# a 132×42 tmux pane to the byte of its output that completes the screen
# showing the upper rate, the certificate and the reproduce line (what
# .ci/tui-smoke waits for). The output is recorded with script(1)'s timing
# file (util-linux), so the figure is the process's own, not a poller's.
# Prints, one line per run, that time and the time to the first byte, in
# milliseconds. Needs tmux, script and python3.
#
#   go build -o /tmp/dpso . && scripts/bench/first_screen.sh /tmp/dpso 10
set -euo pipefail
bin=${1:?usage: first_screen.sh DPSO [RUNS]}
runs=${2:-5}
sock="dpso-first-screen-$$"
dir=$(mktemp -d)
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
for _ in $(seq "$runs"); do
  rm -f "$dir/timing" "$dir/out"
  t new-session -d -s fs -x 132 -y 42 "script -q -f -t$dir/timing -c '$bin' $dir/out"
  until grep -qaF "dpso run --scenario" "$dir/out" 2>/dev/null && grep -qaF "certified" "$dir/out"; do sleep 0.1; done
  sleep 0.5
  t send-keys -t fs q
  sleep 0.3
  t kill-session -t fs 2>/dev/null || true
  python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
data = open(d + "/out", "rb").read()
start = data.index(b"\n") + 1  # script's header line
# (the reproduce line's words are styled apart: "reproduce: ", then the command)
marks = [b"upper rate", b"certified", b"dpso run --scenario"]
t, pos, first, hit = 0.0, start, None, {}
for line in open(d + "/timing"):
    delay, size = line.split()
    t += float(delay)
    pos += int(size)
    first = t if first is None else first
    for m in marks:
        if m not in hit and m in data[start:pos]:
            hit[m] = t
    if len(hit) == len(marks):
        break
print("%.0f ms to the full first screen (first byte %.0f ms)" % (max(hit.values()) * 1000, first * 1000))
PY
done
