#!/usr/bin/env python3
"""Golden values for quantile_test.go, computed independently of the Go code.

The mechanism (estimate.Quantile): on values x_1..x_n, rank r = ceil(q*n),
the geometric grid c_j = 2**(j/8), j = -320..480, a threshold noise nu0
drawn once and a query noise nu_j per point, each geometric on {0, 1, ...}
with P(nu >= m) = exp(-eps*m), eps1 = 0.45*beta for nu0 and eps2 =
(beta - eps1)/2 for nu_j, beta = sqrt(8*rho); the release is the first c_j
with #{x_i <= c_j} + nu_j >= r + nu0 (the top of the grid if none).

Its law is computed here by conditioning on nu0 and walking the grid, with
the geometric law taken from scipy.stats.geom (p = 1 - exp(-eps), shifted
to start at 0), not from the Go code's closed forms:

  P(release = c_k) = sum_u P(nu0 = u) prod_{j<k} P(nu < r+u-n_j) P(nu >= r+u-n_k).

The data sets (seeded numpy draws, rounded to 6 significant digits, so the
Go test reads exactly the values used here):

  * t2.5-loss, t3-loss: the squared loss at w0 = 0, y**2/2, of a linear
    model y = a.w* + xi with a in R^3 of i.i.d. Student-t(nu) entries,
    w* = (0.5, 0.5, 0.5), xi ~ Student-t(nu);
  * t2.5-norm: sup_w ||grad f(w, x)|| = ||a|| (R ||a|| + |y|), R = 1, on the
    same draws (what the private constants' clip reads);
  * counts: y**2/2 with y negative binomial (n = 0.3, p = 0.05): many
    zeros and ties, label kurtosis about 40;
  * constant: ln 2 for every row (the logistic loss at w0 = 0).

Also HighFail(rho, L) = sum_u P(nu0 = u) P(nu < u)**L and TopRank(rho,
fail) = min m with sum_u P(nu0 = u) P(nu < u - m) <= fail and LowFail(rho,
r, L) = 1 - sum_u P(nu0 = u) P(nu < r + u)**L (each sum cut at u <= U with
P(nu0 > U) <= 1e-20, the cut mass counted as passing).

Run: python3 quantile_golden.py > quantile_golden.json
"""
import json
import math

import numpy as np
from scipy.stats import geom

GRID = 2.0 ** (np.arange(-40 * 8, 60 * 8 + 1) / 8.0)


def noise(rho):
    """The threshold's and the queries' noise laws at rho."""
    beta = math.sqrt(8 * rho)
    e1 = 0.45 * beta
    e2 = (beta - e1) / 2
    return geom(1 - math.exp(-e1), loc=-1), geom(1 - math.exp(-e2), loc=-1), e1


def span(e1):
    return int(math.ceil(20 * math.log(10) / e1))


def law(x, q, rho):
    xs = np.sort(x)
    n = len(xs)
    r = min(n, max(1, int(math.ceil(q * n - 1e-9))))
    counts = np.searchsorted(xs, GRID, side="right")
    d1, d2, e1 = noise(rho)
    U = span(e1)
    P = np.zeros(len(GRID))
    for u in range(0, U + 1):
        m = r + u - counts
        halt = d2.sf(m - 1)  # P(nu >= m)
        stay = d2.cdf(m - 1)  # P(nu < m)
        before = np.concatenate([[1.0], np.cumprod(stay)[:-1]])
        P += d1.pmf(u) * before * halt
        P[-1] += d1.pmf(u) * np.prod(stay)
    return P, counts, r, xs[r - 1]


def high_fail(rho, L):
    d1, d2, e1 = noise(rho)
    U = span(e1)
    u = np.arange(0, U + 1)
    return float(np.sum(d1.pmf(u) * d2.cdf(u - 1) ** L) + d1.sf(U))


def top_rank(rho, fail):
    d1, d2, e1 = noise(rho)
    U = span(e1)
    u = np.arange(0, U + 1)
    m = 0
    while np.sum(d1.pmf(u) * d2.cdf(u - m - 1)) + d1.sf(U) > fail:
        m += 1
    return m


def low_fail(rho, r, L):
    d1, d2, e1 = noise(rho)
    U = span(e1)
    u = np.arange(0, U + 1)
    return float(1 - np.sum(d1.pmf(u) * d2.cdf(r + u - 1) ** L) - d1.sf(U))


def r6(v):
    return [float("%.6g" % x) for x in v]


def datasets(n, rng):
    out = {}
    for nu in (2.5, 3.0):
        a = rng.standard_t(nu, size=(n, 3))
        y = a @ np.full(3, 0.5) + rng.standard_t(nu, size=n)
        out["t%g-loss" % nu] = r6(y ** 2 / 2)
        if nu == 2.5:
            na = np.sqrt((a ** 2).sum(axis=1))
            out["t2.5-norm"] = r6(na * (na + np.abs(y)))
    y = rng.negative_binomial(0.3, 0.05, size=n).astype(float)
    out["counts"] = r6(y ** 2 / 2)
    out["constant"] = [math.log(2)] * n
    return out


def main():
    rng = np.random.default_rng(31)
    cases, data = [], {}
    rho = 0.025
    for n in (20, 150, 1500):
        for name, x in datasets(n, rng).items():
            key = "%s/%d" % (name, n)
            data[key] = x
            for q in (0.5, 0.9):
                P, counts, r, Q = law(np.array(x), q, rho)
                cdf = np.cumsum(P)
                med = float(GRID[np.searchsorted(cdf, 0.5)])
                cases.append({
                    "data": key, "q": q, "rho": rho,
                    "r": r, "quantile": float(Q),
                    "above_10q": float(P[GRID > 10 * Q].sum()),
                    "below_q10": float(P[GRID < Q / 10].sum()),
                    "median": med,
                    # the CDF at the last point of each octave, 2**(k + 7/8)
                    "cdf": [float(c) for c in cdf[7::8]],
                })
    bounds = [{"rho": rho, "L": L, "high_fail": high_fail(rho, L)}
              for rho in (0.0125, 0.025, 0.1) for L in (8, 26)]
    ranks = [{"rho": rho, "fail": f, "m": top_rank(rho, f)}
             for rho in (0.0125, 0.025, 0.1) for f in (1e-2, 1e-3)]
    lows = [{"rho": rho, "r": r, "L": 100, "low_fail": low_fail(rho, r, 100)}
            for rho in (0.0125, 0.025) for r in (18, 36, 135)]
    json.dump({"data": data, "cases": cases, "high_fail": bounds, "top_rank": ranks, "low_fail": lows},
              __import__("sys").stdout)


if __name__ == "__main__":
    main()
