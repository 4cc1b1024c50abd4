#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.

The comparison of docs/constants.md, "The private search against an
independent DP-SGD": on each data set of tune_data.py, at zCDP eps = 1
(each search's total, tuning included: eps' = 4.37718 at delta = 1e-5)
under replace-one,

    dpso tune --data FILE --loss LOSS --constants private --holdout 0.2
              --solvers PAPER,dp-sgd --trials T --seed S --rand seeded
              --emit-w --json

against tune_numpy.py's independent search (the same total privacy per
search, the same 20% held out and 90/10 split). Every released w — dpso's
from its JSON, numpy's from its search — is measured the same way: the
excess risk F(w) - F* over every row of the file, F* by SLSQP over W
(tune_numpy.excess). The targets: the best private run no worse than
numpy's, the paper's algorithm within 2x of it, dpso's dp-sgd within
1.5x (ratios of the means over the trials).

--rand seeded makes the runs reproducible (and says NOT PRIVATE: anyone
with the seed removes the noise); the law of each search is the one
--rand secure runs.

Usage: python3 scripts/bench/tune_compare.py DATADIR --dpso ./dpso [--trials 5] [--seed 0]
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tune_numpy  # noqa: E402

DATA = [("returns", "squared"), ("counts", "squared"), ("logistic", "logistic"), ("small", "squared")]


def mean_se(x):
    x = np.asarray(x, dtype=float)
    return x.mean(), (x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else math.nan)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datadir")
    ap.add_argument("--dpso", default="./dpso")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    rows = []
    for name, kind in DATA:
        if a.only and name not in a.only.split(","):
            continue
        path = os.path.join(a.datadir, name + ".csv")
        cmd = [a.dpso, "tune", "--data", path, "--loss", kind, "--constants", "private", "--holdout", "0.2",
               "--solvers", "acsa,dp-sgd", "--trials", str(a.trials), "--seed", str(a.seed), "--rand", "seeded",
               "--emit-w", "--json"]
        print("$ " + " ".join(cmd), file=sys.stderr)
        doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        res = {}
        for s in doc["solvers"]:
            ws = [tr["w"] for tr in s["tuned"]["trials"]]
            res[s["solver"]] = tune_numpy.excess(path, kind, ws)
        res["numpy"] = tune_numpy.excess(path, kind, tune_numpy.search(path, kind, a.trials, a.seed, log=lambda *x: None))
        w0 = tune_numpy.excess(path, kind, [np.zeros(doc["d"])])[0]
        rows.append((name, res, w0))
        print(name, {k: "%.4g" % v.mean() for k, v in res.items()}, file=sys.stderr)
    print("| data | w0 | numpy DP-SGD | dpso acsa (× numpy) | dpso dp-sgd (× numpy) | best private (× numpy) |")
    print("|---|---|---|---|---|---|")
    for name, res, w0 in rows:
        nm, ns = mean_se(res["numpy"])
        cells = [name, "%.4g" % w0, "%.4g ± %.2g" % (nm, ns)]
        for s in ("acsa", "dp-sgd"):
            m, se = mean_se(res[s])
            cells.append("%.4g ± %.2g (%.2f×)" % (m, se, m / nm))
        best = min(("acsa", "dp-sgd"), key=lambda s: res[s].mean())
        cells.append("%s (%.2f×)" % (best, res[best].mean() / nm))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
