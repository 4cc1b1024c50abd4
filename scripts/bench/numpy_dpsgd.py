#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI, not needed to build or test.

A vectorized numpy implementation of what

    dpso run --scenario linreg-t --n N --solver dp-sgd --trials 1

runs, drawing the SAME DATA LAW (not the same bits): linear regression
y = <w*, a> + xi with (a, xi) jointly multivariate Student-t(nu) (nu = 6,
label noise 1, ||w*|| = 0.5, d = 10: linreg-t's defaults): per sample d + 1
standard normals (z, zeta) and one chi-square(nu), m = sqrt(nu/chi2),
a = m z, xi = m zeta.  The n samples are drawn once and kept (DP-SGD makes
several passes).  The algorithm is dpso's dp-sgd: T = ceil(E n / B) steps,
each on a Poisson batch (every sample independently with probability
q = B/n: drawn exactly as a Binomial(n, q) size and a uniform subset of that
size), the per-sample gradients (<w, a> - y) a clipped to l2 norm C and
summed, N(0, (zC)^2 I) added, divided by B, and a projected step
w <- Proj_W(w - eta g) on the ball of radius 1.

It is given dpso's noise multiplier z, clip C and step eta (read them from
`dpso run ... --dry-run`): it does no privacy accounting at all, which
dpso's process does (its calibration of z and the accounted event), so the
comparison favours numpy.  It is the kind of implementation a researcher
writes in an afternoon: numpy's default generator (PCG64) with its ziggurat
normals, one batch of gathered rows per step.

Usage (whole-process CPU time is what is compared, one core):
    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/bench/numpy_dpsgd.py --n 100000 --z 0.562784 --clip 355.59 --step 0.00151782
"""
import argparse
import math

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--d", type=int, default=10)
    ap.add_argument("--tail", type=float, default=6.0)
    ap.add_argument("--noise", type=float, default=1.0)
    ap.add_argument("--wstar", type=float, default=0.5)
    ap.add_argument("--batch", type=float, default=256.0)
    ap.add_argument("--epochs", type=float, default=5.0)
    ap.add_argument("--z", type=float, required=True, help="noise multiplier (dpso's calibrated z)")
    ap.add_argument("--clip", type=float, required=True, help="C (dpso's prescription)")
    ap.add_argument("--step", type=float, required=True, help="eta (dpso's prescription)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    n, d, nu = a.n, a.d, a.tail
    rng = np.random.default_rng(a.seed)
    wstar = np.full(d, a.wstar / math.sqrt(d))
    Z = rng.standard_normal((n, d + 1))
    m = np.sqrt(nu / rng.chisquare(nu, n))
    X = m[:, None] * Z[:, :d]
    y = X @ wstar + a.noise * m * Z[:, d]
    del Z

    B = min(a.batch, n)
    q = B / n
    T = math.ceil(a.epochs / q)
    C, eta, sd = a.clip, a.step, a.z * a.clip
    w = np.zeros(d)
    for _ in range(T):
        k = rng.binomial(n, q)
        idx = rng.choice(n, size=k, replace=False)
        A = X[idx]
        r = A @ w - y[idx]
        norms = np.abs(r) * np.linalg.norm(A, axis=1)
        scale = np.minimum(1.0, C / np.maximum(norms, 1e-300))
        g = (scale * r) @ A
        g += sd * rng.standard_normal(d)
        w -= eta * g / B
        nw = np.linalg.norm(w)
        if nw > 1:
            w /= nw
    print("T", T, "w", " ".join(f"{v:.6f}" for v in w))


if __name__ == "__main__":
    main()
