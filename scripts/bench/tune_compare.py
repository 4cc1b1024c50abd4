#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.

The comparison of docs/constants.md, "The private search against an
independent DP-SGD": on each data set of tune_data.py, at zCDP eps = 1
(each search's total, tuning included: eps' = 4.37718 at delta = 1e-5)
under replace-one,

    dpso tune --data FILE --loss LOSS --constants private --holdout 0.2
              --solvers acsa,dp-sgd --trials T --seed S --rand seeded
              --emit-w --json

against tune_numpy.py's independent search with the same total privacy per
search, on the same rows: the 20% dpso holds out (holdout_rows.go, checked
here against the held-out loss dpso reports for every released w) and a
fresh 90/10 split of the rest in each trial. Every released w — dpso's from
its JSON, numpy's from its search — is measured the same way: the excess
risk F(w) - F* over every row of the file, F* by SLSQP over W
(tune_numpy.excess).

The numpy search runs two scores on the same candidates (tune_numpy.py):
the clipped loss, and the clipped difference to the loss at w0, which
ranks heavy-tailed labels the right way round; dpso (whose score is the
loss clipped to a window that slides up to w0's loss, docs/privacy.md) is
compared with each. A search is one draw of a heavy-tailed law, so each side runs T
independent searches (trials) and the table gives, per side, the median
and quartiles of the T excess risks, and the ratio of dpso's median to
numpy's with a bootstrap 90% interval (the two sides' trials resampled
independently, 4000 times). The targets: the best privately tuned run no
worse than numpy (ratio <= 1), the paper's algorithm (acsa) within 2x,
dpso's dp-sgd within 1.5x. --out writes every trial's excess risk and
released parameters as JSON.

--rand seeded makes the runs reproducible (and says NOT PRIVATE: anyone
with the seed removes the noise); the law of each search is the one
--rand secure runs.

Usage: python3 scripts/bench/tune_compare.py DATADIR --dpso ./dpso [--trials 20] [--seed 0] [--out FILE]
       [--numpy-from FILE ... [--numpy-any-seed]]
       python3 scripts/bench/tune_compare.py --pool OUT1.json,OUT2.json
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tune_numpy  # noqa: E402

DATA = [("returns", "squared"), ("counts", "squared"), ("logistic", "logistic"), ("small", "squared")]
SOLVERS = ("acsa", "dp-sgd")
TARGET = {"best": 1.0, "acsa": 2.0, "dp-sgd": 1.5}


def held_rows(path, frac):
    n = sum(1 for line in open(path) if line.strip())
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run(["go", "run", os.path.join(here, "holdout_rows.go"), str(n), repr(frac)],
                         check=True, capture_output=True, text=True).stdout
    return np.array([int(x) for x in out.split()], dtype=int)


def check_holdout(path, kind, held, trials):
    """dpso's held-out loss of each released w against these rows' mean loss."""
    M = np.loadtxt(path, delimiter=",", ndmin=2)
    A, y = M[held, :-1], M[held, -1]
    for tr in trials:
        if tr.get("holdout") is None:
            continue
        mine = tune_numpy.loss(np.asarray(tr["w"]), A, y, kind).mean()
        theirs = tr["holdout"]["mean"] if isinstance(tr["holdout"], dict) else tr["holdout"]
        if abs(mine - theirs) > 1e-9 * max(1.0, abs(theirs)):
            sys.exit("%s: the held-out rows differ from dpso's (loss %.12g here, %.12g in dpso)" % (path, mine, theirs))


def quart(x):
    return np.percentile(np.asarray(x, dtype=float), [25, 50, 75])


def ratio(a, b, rng, reps=4000):
    """median(a)/median(b) and its bootstrap 5% and 95% points."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ra = np.median(a[rng.integers(len(a), size=(reps, len(a)))], axis=1)
    rb = np.median(b[rng.integers(len(b), size=(reps, len(b)))], axis=1)
    lo, hi = np.percentile(ra / rb, [5, 95])
    return np.median(a) / np.median(b), lo, hi


def g(x):
    return "%.3g" % x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datadir", nargs="?", default="")
    ap.add_argument("--dpso", default="./dpso")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="the data sets to run, comma-separated (default all)")
    ap.add_argument("--solvers", default=",".join(SOLVERS), help="dpso's solvers to run, comma-separated (default acsa,dp-sgd)")
    ap.add_argument("--out", default="")
    ap.add_argument("--dpso-args", default="", help="more arguments for dpso tune (e.g. an explicit --grid-clip)")
    ap.add_argument("--numpy-only", action="store_true", help="run the numpy searches only (for --numpy-from)")
    ap.add_argument("--numpy-from", action="append", default=[],
                    help="reuse the numpy searches of an earlier --out (same --trials and --seed); "
                    "may be given more than once, a later file's data sets replacing an earlier's")
    ap.add_argument("--numpy-any-seed", action="store_true",
                    help="let --numpy-from's searches have another seed or number of trials than dpso's: "
                    "the two sides are independent draws either way (the ratio's interval resamples each side's own)")
    ap.add_argument("--pool", default="",
                    help="no searches: the table of earlier --out files (comma-separated), each side's searches "
                    "concatenated (a list that is a prefix of another's counts once)")
    a = ap.parse_args()
    solvers = tuple(a.solvers.split(","))
    if a.pool:
        rows = pooled(a.pool.split(","))
        report(rows, solvers, "the searches of %s, pooled" % a.pool, {}, np.random.default_rng(12345))
        return
    if not a.datadir:
        ap.error("the data directory is required (except with --pool)")
    cached, origin = {}, {}
    for path in a.numpy_from:
        with open(path) as f:
            old = json.load(f)
        if (old["trials"], old["seed"]) != (a.trials, a.seed) and not a.numpy_any_seed:
            sys.exit("--numpy-from: %s has trials %d, seed %d (--numpy-any-seed allows it)" % (path, old["trials"], old["seed"]))
        for name, v in old["data"].items():
            cached[name] = v
            origin[name] = "numpy: %d searches, seed %d (%s)" % (len(v["excess"]["numpy-loss"]), old["seed"], path)
    rng = np.random.default_rng(12345)
    rows, dump = [], {}
    for name, kind in DATA:
        if a.only and name not in a.only.split(","):
            continue
        path = os.path.join(a.datadir, name + ".csv")
        held = held_rows(path, 0.2)
        res, params = {}, {}
        if not a.numpy_only:
            cmd = [a.dpso, "tune", "--data", path, "--loss", kind, "--constants", "private", "--holdout", "0.2",
                   "--solvers", a.solvers, "--trials", str(a.trials), "--seed", str(a.seed),
                   "--rand", "seeded", "--emit-w", "--json"] + a.dpso_args.split()
            print("$ " + " ".join(cmd), file=sys.stderr)
            doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            for s in doc["solvers"]:
                trials = s["tuned"]["trials"]
                check_holdout(path, kind, held, trials)
                res[s["solver"]] = tune_numpy.excess(path, kind, [tr["w"] for tr in trials])
                params[s["solver"]] = [tr["params"] for tr in trials]
        if name in cached:
            for k in ("numpy-loss", "numpy-diff"):
                res[k] = np.asarray(cached[name]["excess"][k])
                params[k] = cached[name]["params"][k]
        else:
            ws = tune_numpy.search(path, kind, a.trials, a.seed, log=lambda *x: None, held=held)
            for score in ("loss", "diff"):
                res["numpy-" + score] = tune_numpy.excess(path, kind, ws[score])
                params["numpy-" + score] = [dict(zip(("clip", "step", "epochs"), c)) if c else None
                                            for c in tune_numpy.search.released[score]]
        d = np.loadtxt(path, delimiter=",", max_rows=1).size - 1
        w0 = tune_numpy.excess(path, kind, [np.zeros(d)])[0]
        rows.append((name, res, w0))
        dump[name] = {"w0": w0, "excess": {k: v.tolist() for k, v in res.items()}, "params": params}
        print(name, {k: g(np.median(v)) for k, v in res.items()}, file=sys.stderr, flush=True)
    if a.numpy_only:
        with open(a.out or "/dev/stdout", "w") as f:
            json.dump({"trials": a.trials, "seed": a.seed, "data": dump}, f, indent=1)
        return
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"trials": a.trials, "seed": a.seed, "data": dump}, f, indent=1)
    report(rows, solvers, "%d trials (searches)" % a.trials, origin, rng)


def pooled(paths):
    """The data sets of several --out files, each side's searches
    concatenated; a list that is a prefix of another (the same searches:
    cached numpy ones reused, or seed 0's 20 inside its 40) counts once."""
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append(json.load(f)["data"])
    rows = []
    for name in [n for n, _ in DATA if all(n in d for d in docs)]:
        res = {}
        for k in docs[0][name]["excess"]:
            lists = []
            for d in docs:
                x = d[name]["excess"].get(k)
                if x is None or any(y[:len(x)] == x for y in lists):
                    continue
                lists = [y for y in lists if x[:len(y)] != y] + [x]
            res[k] = np.concatenate([np.asarray(y, dtype=float) for y in lists])
        rows.append((name, res, docs[0][name]["w0"]))
    return rows


def report(rows, solvers, what, origin, rng):
    print("Excess risk F(w) - F* over every row of the file: median [quartiles] of %s." % what)
    for name, res, _ in rows:
        if name in origin:
            print("%s: %s" % (name, origin[name]))
        else:
            print("%s: dpso %s; numpy %d searches" % (
                name, ", ".join("%s %d" % (k, len(res[k])) for k in solvers), len(res["numpy-loss"])))
    print()
    print("| data | w0 | numpy DP-SGD, loss score | numpy DP-SGD, diff score | dpso acsa | dpso dp-sgd |")
    print("|---|---|---|---|---|---|")
    for name, res, w0 in rows:
        cells = [name, g(w0)]
        for k in ("numpy-loss", "numpy-diff") + solvers:
            q = quart(res[k])
            cells.append("%s [%s, %s]" % (g(q[1]), g(q[0]), g(q[2])))
        print("| " + " | ".join(cells) + " |")
    print()
    print("Ratios: dpso's median over numpy's [bootstrap 90%]; against the numpy search with the clipped loss "
          "(loss) and with the better of its two scores on that data set (best).")
    print()
    print("| data | vs numpy | acsa (≤ 2) | dp-sgd (≤ 1.5) | best private (≤ 1) |")
    print("|---|---|---|---|---|")
    for name, res, w0 in rows:
        nbest = min(("numpy-loss", "numpy-diff"), key=lambda k: np.median(res[k]))
        best = min(solvers, key=lambda k: np.median(res[k]))
        for base, label in (("numpy-loss", "loss"), (nbest, "best (%s)" % nbest[6:])):
            cells = [name, label]
            for s in solvers + (best,):
                r, lo, hi = ratio(res[s], res[base], rng)
                cells.append(("%s " % s if s == best and len(cells) == 4 else "") + "%.2f [%.2f, %.2f]" % (r, lo, hi))
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
