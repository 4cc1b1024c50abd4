#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.

An independent private search for DP-SGD, written in numpy and scipy from
the papers, none of dpso's code: the baseline that dpso tune's privately
tuned runs are compared with (docs/constants.md, "The private search
against an independent DP-SGD").

Data: a CSV (features..., label), squared or logistic loss, W = the ball of
radius 1 (dpso's default D = 2 on --data). 20% of the rows are held out
(tune_compare.py holds out dpso's own 20%, from holdout_rows.go; alone, a
seeded choice), the rest split 90/10 into training and validation rows
afresh in each trial (dpso tune --holdout 0.2 with its default
--validation 0.1).

DP-SGD: T = ceil(E n / B) steps, each on a Poisson batch (rate q = B/n),
per-sample gradients clipped to C, summed, N(0, (zC)^2 I) added, divided by
B, a projected step w <- Proj_W(w - eta g); the output is the last iterate.

Privacy, replace-one adjacency (one row replaced; dpso's): one step is the
pair P = (1-q) N(0, z^2) + q N(1, z^2) against Q = (1-q) N(0, z^2) +
q N(-1, z^2) in units of C (the replaced row's gradient g against -g, the
antipodal worst case of Koskela, Jalko & Honkela 2020); its Renyi
divergence D_a(P||Q) is integrated numerically on a fine grid (log-space,
scipy.special.logsumexp) at each order a of a fixed grid, composed over T
steps (T D_a). The candidate's validation score is a Gaussian mechanism on
the validation rows (disjoint from the training rows, so the candidate's
curve is the larger of the two at each order; its noise is set so that the
score's curve stays below the training's).

Tuning: Papernot & Steinke, "Hyperparameter Tuning with Renyi Differential
Privacy" (ICLR 2022), Theorem 2: K ~ truncated negative binomial with
eta = 1 (geometric, mean 10, gamma = 0.1), each candidate a grid point
drawn uniformly; eps'(l) = eps(l) + (1+eta)(1 - 1/lh) eps(lh) +
(1+eta) log(1/gamma)/lh + log(E K)/(l - 1), minimised over lh on the
order grid; (eps', delta) by Canonne, Kamath & Steinke 2020, Prop. 12:
eps = eps'(l) + log((l-1)/l) - (log delta + log l)/(l - 1). The grid's
candidates get one Renyi curve: the largest-T candidate's noise multiplier
is the smallest whose curve meets eps' = 4.37718 at delta = 1e-5 (the exact
(eps', delta) of zCDP eps = 1, what dpso tune's search meets), and every
other candidate's z is the smallest whose curve stays below that one.

Two scores, each its own search on the same candidates (each search's law
is that of a search run alone; the candidates are trained once to halve
the cost):

"loss": the validation rows' mean loss clipped at c_s, plus Gaussian
noise (sensitivity c_s/n_v), the lowest released; c_s is the private
0.9-quantile of the loss at w0 = 0 over the training rows at rho_s = rho/50
= 0.01 (AboveThreshold up the grid 2^(j/8), j = -320..480, with
one-sided geometric noises of rates 0.45 beta and 0.275 beta, beta =
sqrt(8 rho_s): a beta-bounded-range mechanism, hence rho_s-zCDP; Durfee
2023). Both the clip and the candidates read the training rows, so the
search's curve is Theorem 2's plus rho_s * l.

"diff": the validation rows' mean of loss(w) - loss(w0) clipped to
[-c_d, c_d], plus Gaussian noise (sensitivity 2 c_d/n_v, the same noise
multiplier); c_d is the private 0.9-quantile, as above, of each training
row's sup over W of |loss(w) - loss(w0)| (squared: |a| R |y| + |a|^2 R^2/2;
logistic: |a| R). On heavy-tailed labels the clipped loss ranks candidates
backwards: the rows whose loss at w0 is above c_s score c_s whatever the
candidate, and on the others a fit costs what shrinkage saves; the
difference keeps the large rows' gain (linear in |y|, not quadratic).

The grid is public and data-independent: C in {0.1, 0.3, 1, 3, 10, 30},
eta in {0.003, 0.01, 0.03, 0.1, 0.3, 1}, E in {1, 2, 5} epochs, batch
min(256, n/4).

It prints, per trial, the released candidate, and the excess risk F(w) - F*
of the released w over every row of the file (F* by scipy's SLSQP over
W), its mean and standard error over the trials: the yardstick
tune_compare.py measures dpso's released w by too.

Usage: python3 scripts/bench/tune_numpy.py FILE.csv --loss squared|logistic [--trials 5] [--seed 0]
       [--held-from-dpso] [--oracle]
"""
import argparse
import math
import os

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, logsumexp

ORDERS = np.concatenate([1 + np.arange(1, 40) / 8, np.arange(6, 65, 1.0), [96, 128]])
TARGET, DELTA = 4.37718, 1e-5
ETA, GAMMA, MEAN_K = 1.0, 0.1, 10.0


def step_rdp(q, z):
    """D_a(P||Q) of one replace-one step at each order (numerical)."""
    # Far right, Q (P/Q)^a peaks near x = 2a - 1 (P/Q -> e^{2x/z^2}), so the
    # range reaches past 2 max(ORDERS) + 12 z: a shorter one understates D_a.
    x = np.linspace(-12 * z - 3, 12 * z + 3 + 2 * ORDERS[-1], 400001)
    dx = x[1] - x[0]
    lg = lambda m: -((x - m) ** 2) / (2 * z * z) - math.log(z * math.sqrt(2 * math.pi))
    lp = np.logaddexp(math.log1p(-q) + lg(0), math.log(q) + lg(1)) if q < 1 else lg(1)
    lq = np.logaddexp(math.log1p(-q) + lg(0), math.log(q) + lg(-1)) if q < 1 else lg(-1)
    out = []
    for a in ORDERS:
        out.append(max(0.0, (logsumexp(a * lp + (1 - a) * lq) + math.log(dx)) / (a - 1)))
    return np.array(out)


RHO_S = 0.01  # the score clip's zCDP


def search_eps(curve):
    """Papernot-Steinke Theorem 2 (eta = 1) plus the clip's rho_s * l, then (eps', delta)."""
    best = math.inf
    for i, l in enumerate(ORDERS):
        tail = np.min((1 + ETA) * (1 - 1 / ORDERS) * curve + (1 + ETA) * math.log(1 / GAMMA) / ORDERS)
        e = curve[i] + tail + math.log(MEAN_K) / (l - 1) + RHO_S * l
        best = min(best, e + math.log((l - 1) / l) - (math.log(DELTA) + math.log(l)) / (l - 1))
    return best


def at_quantile(x, q, rho, rng):
    """The private q-quantile of x by AboveThreshold up 2^(j/8) (Durfee 2023)."""
    beta = math.sqrt(8 * rho)
    e1, e2 = 0.45 * beta, 0.275 * beta
    xs = np.sort(x)
    r = min(len(xs), max(1, math.ceil(q * len(xs) - 1e-9)))
    thr = r + rng.geometric(1 - math.exp(-e1)) - 1
    for j in range(-320, 481):
        c = 2.0 ** (j / 8)
        if np.searchsorted(xs, c, side="right") + rng.geometric(1 - math.exp(-e2)) - 1 >= thr:
            return c
    return 2.0 ** 60


def smallest_z(fits, lo=0.05, hi=200.0):
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return hi


def calibrate(q, steps_list):
    """z per T: the largest T meets the target; the others stay below its curve."""
    cache = {}

    def rdp(z):
        if z not in cache:
            cache[z] = step_rdp(q, z)
        return cache[z]

    tmax = max(steps_list)
    zmax = smallest_z(lambda z: search_eps(tmax * rdp(z)) <= TARGET)
    ref = tmax * rdp(zmax)
    zs = {tmax: zmax}
    for T in steps_list:
        if T != tmax:
            zs[T] = smallest_z(lambda z: np.all(T * rdp(z) <= ref * (1 + 1e-12)))
    return zs, ref


def loss(w, A, y, kind):
    s = A @ w
    if kind == "logistic":
        return np.logaddexp(0, -y * s)
    return 0.5 * (s - y) ** 2


def grads(w, A, y, kind):
    s = A @ w
    if kind == "logistic":
        return (-y * expit(-y * s))[:, None] * A
    return (s - y)[:, None] * A


def proj(w, R=1.0):
    n = np.linalg.norm(w)
    return w if n <= R else w * (R / n)


def dpsgd(A, y, kind, C, eta, T, q, z, rng):
    n, d = A.shape
    w = np.zeros(d)
    for _ in range(T):
        idx = np.nonzero(rng.random(n) < q)[0]
        g = grads(w, A[idx], y[idx], kind)
        nrm = np.linalg.norm(g, axis=1)
        g *= np.minimum(1, C / np.maximum(nrm, 1e-300))[:, None]
        s = g.sum(axis=0) + rng.normal(0, z * C, d)
        w = proj(w - eta * s / (q * n))
    return w


def erm(A, y, kind):
    d = A.shape[1]
    f = lambda w: loss(w, A, y, kind).mean()
    jac = lambda w: grads(w, A, y, kind).mean(axis=0)
    cons = {"type": "ineq", "fun": lambda w: 1 - w @ w, "jac": lambda w: -2 * w}
    r = minimize(f, np.zeros(d), jac=jac, constraints=[cons], method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    return r.fun


def search(path, kind, trials, seed, log=print, held=None, oracle=False, cands=None):
    """The private search on the CSV at path: each trial's released w.

    held: the indices of the rows held out (dpso's, from holdout_rows.go);
    None holds out a seeded 20% of its own. oracle: instead, every grid
    point once, ranked by its excess risk (not private). cands: a list that
    gets, per trial, every candidate's (C, eta, E), w and its two noisy
    scores, and dpso's windowed score at the clipped loss's noise (not private: what the selection chose among; the draws are the
    same with or without it)."""
    M = np.loadtxt(path, delimiter=",", ndmin=2)
    if held is None:
        perm = np.random.default_rng(seed).permutation(len(M))
        keep = M[perm[int(round(0.2 * len(M))):]]
    else:
        mask = np.ones(len(M), dtype=bool)
        mask[np.asarray(held, dtype=int)] = False
        keep = M[mask]
    A_all, y_all = keep[:, :-1], keep[:, -1]
    n_all = len(y_all)
    nv = max(1, int(round(0.1 * n_all)))
    nt = n_all - nv
    B = min(256, nt // 4)
    q = B / nt
    epochs = [1, 2, 5]
    steps = {E: int(math.ceil(E * nt / B)) for E in epochs}
    zs, ref = calibrate(q, sorted(set(steps.values())))
    grid = [(C, eta, E) for C in (0.1, 0.3, 1, 3, 10, 30) for eta in (0.003, 0.01, 0.03, 0.1, 0.3, 1) for E in epochs]
    # the score's noise, in units of c_s: its curve a/(2 nv^2 s^2) below the candidates' (ref).
    # (the smallest such s, in closed form: no search range to clamp it)
    s = float(np.max(np.sqrt(ORDERS / (2 * nv * nv * ref))))
    log("n = %d (train %d, validation %d), batch %d, q = %.4g; z per epochs: %s; score sigma %.4g c_s; search eps' = %.6g"
        % (n_all, nt, nv, B, q, {E: round(zs[steps[E]], 4) for E in epochs}, s, search_eps(ref)))
    if oracle:
        # Every grid point on trial 0's training rows at the search's noise,
        # ranked by its excess risk over every row: NOT private, a reference
        # for what the grid holds at this budget (dpso's oracle-tuned run).
        tr = np.random.default_rng([seed, 0])
        order = tr.permutation(n_all)
        At, yt = A_all[order[:nt]], y_all[order[:nt]]
        M_A, M_y = M[:, :-1], M[:, -1]
        fstar = erm(M_A, M_y, kind)
        Av, yv = A_all[order[nt:]], y_all[order[nt:]]
        w0 = np.zeros(At.shape[1])
        cs = np.quantile(loss(w0, At, yt, kind), 0.9)  # the clip without its noise
        lv0 = loss(w0, Av, yv, kind)
        pts = []
        for C, eta, E in grid:
            w = dpsgd(At, yt, kind, C, eta, steps[E], q, zs[steps[E]], tr)
            lv = loss(w, Av, yv, kind)
            pts.append((loss(w, M_A, M_y, kind).mean() - fstar, C, eta, E, np.mean(np.minimum(lv, cs)),
                        np.mean(np.clip(lv - lv0, -cs, cs)), np.mean(lv),
                        np.mean(np.clip(lv - np.maximum(0, lv0 - cs), 0, cs))))
        pts.sort()
        for ex, C, eta, E, sl, sd, sr, _ in pts[:5]:
            log("oracle (not private): excess %.4g at C = %g, eta = %g, epochs = %d; validation: clipped loss %.4g, "
                "clipped difference %.4g, loss %.4g" % (ex, C, eta, E, sl, sd, sr))
        log("oracle (not private): median grid point %.4g" % pts[len(pts) // 2][0])
        for name, i in (("clipped loss", 4), ("clipped difference", 5), ("unclipped loss", 6),
                        ("windowed loss (dpso's score)", 7)):
            pick = min(pts, key=lambda p: p[i])
            log("noiseless pick of the %s (clip %.4g, the training losses' 0.9-quantile at w0): excess %.4g at C = %g, "
                "eta = %g, epochs = %d, score %.4g" % (name, cs, pick[0], *pick[1:4], pick[i]))
        return pts
    ws = {"loss": [], "diff": []}
    search.released = {"loss": [], "diff": []}
    for trial in range(trials):
        tr = np.random.default_rng([seed, trial])
        td = np.random.default_rng([seed, trial, 1])  # the diff score's clip and noise
        tw = np.random.default_rng([seed, trial, 2])  # cands' windowed score
        order = tr.permutation(n_all)
        At, yt = A_all[order[:nt]], y_all[order[:nt]]
        Av, yv = A_all[order[nt:]], y_all[order[nt:]]
        w0 = np.zeros(At.shape[1])
        cs = at_quantile(loss(w0, At, yt, kind), 0.9, RHO_S, tr)
        cd = at_quantile(diff_bound(At, yt, kind), 0.9, RHO_S, td)
        lv0 = loss(w0, Av, yv, kind)
        K = int(tr.geometric(GAMMA))
        best = {"loss": (math.inf, w0, None), "diff": (math.inf, w0, None)}
        kept = []
        for _ in range(K):
            C, eta, E = grid[tr.integers(len(grid))]
            w = dpsgd(At, yt, kind, C, eta, steps[E], q, zs[steps[E]], tr)
            lv = loss(w, Av, yv, kind)
            sc = {"loss": np.mean(np.minimum(lv, cs)) + tr.normal(0, s * cs),
                  "diff": np.mean(np.clip(lv - lv0, -cd, cd)) + td.normal(0, s * 2 * cd)}
            if cands is not None:
                # dpso's windowed score (docs/privacy.md) on this candidate at the clipped
                # loss's noise, from its own stream: a diagnostic, no part of either search.
                win = np.mean(np.clip(lv - np.maximum(0, lv0 - cs), 0, cs)) + tw.normal(0, s * cs)
                kept.append({"point": (C, eta, E), "w": w, "score": dict(sc, win=win)})
            for k, v in sc.items():
                if v < best[k][0]:
                    best[k] = (v, w, (C, eta, E))
        if cands is not None:
            cands.append(kept)
        for k in ws:
            ws[k].append(best[k][1])
            search.released[k].append(best[k][2])
        log("trial %d: K = %d; c_s = %.4g, released (C, eta, epochs) = %s; c_d = %.4g, released %s"
            % (trial, K, cs, best["loss"][2], cd, best["diff"][2]))
    return ws


def diff_bound(A, y, kind, R=1.0):
    """sup over W = B(0, R) of |loss(w) - loss(0)| per row: the diff score's scale."""
    na = np.linalg.norm(A, axis=1) * R
    if kind == "logistic":
        return na  # the logistic loss is 1-Lipschitz in the margin
    return na * np.abs(y) + 0.5 * na * na


def excess(path, kind, ws):
    """F(w) - F* over every row of the file (F* by SLSQP over W), per w."""
    M = np.loadtxt(path, delimiter=",", ndmin=2)
    A, y = M[:, :-1], M[:, -1]
    fstar = erm(A, y, kind)
    return np.array([loss(np.asarray(w), A, y, kind).mean() - fstar for w in ws])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--loss", default="squared")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--oracle", action="store_true",
                    help="train every grid point once at the search's noise and rank them by excess risk (NOT private)")
    ap.add_argument("--held-from-dpso", action="store_true",
                    help="hold out the rows dpso tune --holdout 0.2 holds out (go run holdout_rows.go)")
    a = ap.parse_args()
    held = None
    if a.held_from_dpso:
        import subprocess
        n = sum(1 for line in open(a.csv) if line.strip())
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run(["go", "run", os.path.join(here, "holdout_rows.go"), str(n), "0.2"],
                             check=True, capture_output=True, text=True).stdout
        held = [int(x) for x in out.split()]
    if a.oracle:
        search(a.csv, a.loss, 1, a.seed, held=held, oracle=True)
        return
    for k, ws in search(a.csv, a.loss, a.trials, a.seed, held=held).items():
        ex = excess(a.csv, a.loss, ws)
        print("score %s: excess risk over every row of the file: median %.6g, quartiles %.6g, %.6g over %d trials"
              % (k, np.median(ex), *np.percentile(ex, [25, 75]), len(ex)))


if __name__ == "__main__":
    main()
