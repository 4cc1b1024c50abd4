#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.

Where a privately tuned dpso run loses to (or beats) the independent numpy
DP-SGD of tune_numpy.py on one data set (docs/tuning.md, "The returns'
1.26×, decomposed"): both sides' searches as tune_compare.py runs them
(zCDP eps = 1, replace-one, --constants private --holdout 0.2; numpy on the
same rows), with every candidate kept (dpso tune --emit-candidates --json's
diagnostics.ws; tune_numpy.search's cands), each measured by its excess
risk over every row of the file (not private: a diagnostic). Per side,
medians over the searches:

  released        the released run's excess risk (what tune_compare reads)
  best of draws   the best candidate of the same draws (the grid's share)
  median cand.    the median candidate, and the share worse than w0
  released/best   the selection's regret

and the ratio of each released median to the numpy search's with the
clipped loss (bootstrap 90%, each side resampled). The numpy rows also give
dpso's windowed score on numpy's own candidates at the clipped loss's noise.

--dpso-args=--estimate-constants runs dpso with the constants estimated
from the rows without privacy and no share of rho spent on them (NOT
private: the constants' cost, as an upper bound).

Usage: python3 scripts/bench/tune_decompose.py DATA/returns.csv --dpso ./dpso [--loss squared]
       [--trials 200] [--seed 0] [--dpso-args=--estimate-constants]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tune_compare  # noqa: E402
import tune_numpy  # noqa: E402


def row(name, rel, best, cand, w0):
    rel, best, cand = np.asarray(rel), np.asarray(best), np.asarray(cand)
    return "| %s | %.3g | %.3g | %.3g; %.0f%% | %.2f |" % (
        name, np.median(rel), np.median(best), np.median(cand), 100 * np.mean(cand > w0), np.median(rel / best))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--dpso", default="./dpso")
    ap.add_argument("--loss", default="squared")
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dpso-args", default="",
                    help="more arguments for dpso tune (--constants private unless they hold --estimate-constants)")
    a = ap.parse_args()
    M = np.loadtxt(a.csv, delimiter=",", ndmin=2)
    A, y = M[:, :-1], M[:, -1]
    fstar = tune_numpy.erm(A, y, a.loss)

    def ex(w):
        return float(tune_numpy.loss(np.asarray(w, dtype=float), A, y, a.loss).mean() - fstar)

    w0 = ex(np.zeros(A.shape[1]))
    extra = a.dpso_args.split()
    # --estimate-constants (NOT private: a diagnostic) replaces the private constants
    constants = [] if "--estimate-constants" in extra else ["--constants", "private"]
    cmd = [a.dpso, "tune", "--data", a.csv, "--loss", a.loss] + constants + ["--holdout", "0.2",
           "--solvers", "acsa,dp-sgd", "--trials", str(a.trials), "--seed", str(a.seed), "--rand", "seeded",
           "--emit-w", "--emit-candidates", "--json"] + extra
    print("$ " + " ".join(cmd), file=sys.stderr)
    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    cands = []
    ws = tune_numpy.search(a.csv, a.loss, a.trials, a.seed, log=lambda *x: None,
                           held=tune_compare.held_rows(a.csv, 0.2), cands=cands)
    side = {}
    for s in doc["solvers"]:
        rel, best, cand = [], [], []
        for t in s["tuned"]["trials"]:
            e = [ex(w) for w in t["diagnostics"].get("ws") or []]
            r = ex(t["w"])
            rel.append(r)
            best.append(min(e) if e else r)
            cand += e
        side["dpso " + s["solver"]] = (rel, best, cand)
    ecands = [[ex(c["w"]) for c in kept] for kept in cands]
    for score in ("loss", "diff", "win"):
        rel, best = [], []
        for kept, e in zip(cands, ecands):
            if not kept:
                rel.append(w0)
                best.append(w0)
                continue
            rel.append(e[int(np.argmin([c["score"][score] for c in kept]))])
            best.append(min(e))
        side["numpy, " + {"loss": "clipped loss", "diff": "difference score",
                          "win": "dpso's window on its candidates"}[score]] = (rel, best, sum(ecands, []))
    for k in ("loss", "diff"):  # the released runs are tune_numpy.search's own
        if np.max(np.abs(np.asarray(side["numpy, " + ("clipped loss" if k == "loss" else "difference score")][0])
                         - tune_numpy.excess(a.csv, a.loss, ws[k]))) > 1e-12:
            sys.exit("numpy's kept candidates do not reproduce its releases (%s)" % k)
    print("%s: %d searches a side, seed %d; w0 %.3g\n" % (os.path.basename(a.csv), a.trials, a.seed, w0))
    print("| side | released | best of draws | median candidate; worse than w0 | released/best |")
    print("|---|---|---|---|---|")
    for name, (rel, best, cand) in side.items():
        print(row(name, rel, best, cand, w0))
    print()
    base = side["numpy, clipped loss"][0]
    rng = np.random.default_rng(12345)
    for name, (rel, _, _) in side.items():
        if name != "numpy, clipped loss":
            print("%s over numpy's clipped loss: %.2f [%.2f, %.2f]" % ((name,) + tune_compare.ratio(rel, base, rng)))


if __name__ == "__main__":
    main()
