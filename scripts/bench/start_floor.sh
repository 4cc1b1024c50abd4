#!/usr/bin/env bash
# BENCHMARK REFERENCE ONLY — not part of dpso's build or tests.
#
# Builds the floors under a dpso process's start, each with
# CGO_ENABLED=0 as the README builds dpso:
#   OUT/hello  a Go hello-world;
#   OUT/deps   a main that blank-imports every non-standard package the dpso
#              binary links, and does nothing: the dependencies' start
#              (their initializers, the loader and the runtime);
#   OUT/pkgs   a main that blank-imports dpso's command package (and with it
#              every dpso package), and does nothing: dpso's own initializers
#              added.
# Time them beside `dpso list`, e.g. with perf stat -e page-faults,task-clock
# or callgrind (GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind
# --tool=callgrind OUT/deps).
#
#   scripts/bench/start_floor.sh /tmp/floors
set -euo pipefail
out=${1:?usage: start_floor.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
dir=$(mktemp -d -p . .start-floor.XXXXXX)
trap 'rm -rf "$dir"' EXIT
build() { # name, then the main's imports
  local name=$1
  shift
  mkdir -p "$dir/$name"
  {
    echo "package main"
    echo "import ("
    for p in "$@"; do echo "	_ \"$p\""; done
    echo ")"
    echo "func main() {}"
  } >"$dir/$name/main.go"
  CGO_ENABLED=0 go build -o "$out/$name" "./$dir/$name"
}
mkdir -p "$dir/hello"
printf 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello") }\n' >"$dir/hello/main.go"
CGO_ENABLED=0 go build -o "$out/hello" "./$dir/hello"
# Only importable paths: internal and vendored packages come in through
# the packages that import them.
mapfile -t deps < <(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' . |
  grep -v '^dpso\(/\|$\)' | grep -v '/internal\(/\|$\)' | grep -v '^vendor/')
build deps "${deps[@]}"
build pkgs dpso/app/cli
echo "built $out/hello, $out/deps and $out/pkgs"
