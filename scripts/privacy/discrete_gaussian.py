#!/usr/bin/env python3
"""Reference computation for docs/privacy.md ("Why not the discrete Gaussian")
— not part of dpso, not run by CI (numpy and scipy: apt install python3-scipy).

The discrete Gaussian N_Z(0, s^2) of Canonne, Kamath & Steinke (NeurIPS 2020)
added to an integer query of sensitivity D is (D^2/(2 s^2))-zCDP (their
Theorem 14), the zCDP of the Gaussian mechanism at mu = D/s.  This script
computes, independently of dpso's code, its exact hockey-stick divergence

    delta_Z(eps) = sum_j max(0, P(j) - e^eps Q(j)),
    P = N_Z(0, s^2), Q = N_Z(D, s^2)  (same normalizer: D is an integer),

against the Gaussian mechanism's curve at the same mu (Balle & Wang 2018,
Theorem 8), delta_G(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
and prints the largest excess delta_Z - delta_G over a grid of eps: where it
is positive the discrete Gaussian is not mu-GDP, and the exact (eps', delta)
that dpso states for a composition of Gaussian mechanisms would not cover it.
(It also compares the rounded Gaussian round(v + s Z), the release of dpso's
exact sampler, which by post-processing never exceeds the curve.)

    python3 scripts/privacy/discrete_gaussian.py
"""
import math

import numpy as np
from scipy.stats import norm


def delta_gauss(mu, eps):
    return norm.sf(eps / mu - mu / 2) - math.exp(eps) * norm.sf(eps / mu + mu / 2)


def hockey(p, q, eps):
    return np.maximum(0.0, p - math.exp(eps) * q).sum()


def discrete(s, d):
    k = int(40 * s) + d + 10
    z = np.arange(-k, k + 1)
    lp, lq = -z**2 / (2 * s * s), -(z - d) ** 2 / (2 * s * s)
    m = lp.max()
    zn = np.exp(lp - m).sum()
    return np.exp(lp - m) / zn, np.exp(lq - m) / zn


def rounded(s, v, d):
    k = int(40 * s + abs(d)) + 10
    j = np.arange(-k, k + 1)
    p = norm.cdf((j + 0.5 - v) / s) - norm.cdf((j - 0.5 - v) / s)
    q = norm.cdf((j + 0.5 - v - d) / s) - norm.cdf((j - 0.5 - v - d) / s)
    return p, q


def worst(p, q, mu):
    best = (-1.0, 0.0, 0.0)
    for eps in np.linspace(0, mu * mu / 2 + 6 * mu, 2000):
        e = hockey(p, q, eps) - delta_gauss(mu, eps)
        if e > best[0]:
            best = (e, eps, delta_gauss(mu, eps))
    return best


print("discrete Gaussian N_Z(0, s^2), integer shift D: largest delta_Z(eps) - delta_G(eps)")
print("     s     D     mu   excess       at eps   delta_G there   relative")
for s, d in [(3, 10), (10, 30), (30, 100), (100, 100)]:
    p, q = discrete(s, d)
    e, eps, g = worst(p, q, d / s)
    print(f"{s:6g} {d:5d} {d / s:6.3f}   {e:.3g}   {eps:8.3f}   {g:.6g}   {e / g:.3g}")

print("rounded Gaussian round(v + s Z) (dpso's exact release): largest delta_R(eps) - delta_G(eps)")
for s, v, d in [(2, 0.3, 0.7), (3, -0.41, 2.5), (5, 0.77, 9.9)]:
    p, q = rounded(s, v, d)
    e, eps, g = worst(p, q, d / s)
    print(f"{s:6g} {v:6g} {d:6g}   {e:.3g}  (at most 0, up to the rounding of the sums: never above the curve)")
