#!/usr/bin/env python3
"""Golden values for search_test.go: the (eps', delta) of a private search
whose candidates run different mechanisms, each accounted by its own Renyi
curve, computed independently of dpso's Go code. Python 3 with mpmath;
it reuses this folder's other golden scripts (themselves independent of
the Go code): replace_one_golden.rdp (the replace-one Poisson-subsampled
Gaussian's Renyi divergence by mpmath quadrature) and ps22_golden.thm2 /
eps_from (Papernot & Steinke's Theorem 2 and the conversion of Canonne,
Kamath & Steinke 2020, Proposition 12).

The search: K ~ truncated negative binomial (eta = 1: geometric, mean 10);
a candidate draws one of the mechanisms at random (independently of the
data) and runs it, so its curve is the pointwise maximum of theirs:
  * T steps of the Poisson-subsampled Gaussian at rate q, noise z,
    replace-one: T * D_alpha(P||Q) (replace_one_golden.rdp);
  * a Gaussian mechanism with noise multiplier z: alpha / (2 z^2);
then Theorem 2 on that curve, plus fixed_rho * alpha (the search's other
releases), converted at delta = 1e-5.

Run: python3 search_golden.py  (prints the value the test asserts).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import replace_one_golden as ro  # noqa: E402
import ps22_golden as ps  # noqa: E402

ORDERS = [1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64]


def search_eps(mechs, score_z, fixed_rho, eta, mean, delta, orders):
    curves = []
    for q, T, z in mechs:
        curves.append([T * float(ro.rdp(z, q, a)) for a in orders])
    curves.append([a / (2 * score_z * score_z) for a in orders])
    cand = [max(c[i] for c in curves) for i in range(len(orders))]
    out = ps.thm2(orders, cand, eta, mean)
    out = [v + fixed_rho * a for v, a in zip(out, orders)]
    return ps.eps_from(orders, out, delta)


if __name__ == '__main__':
    mechs = [(0.05, 40, 1.22), (0.25, 8, 2.5)]
    e = search_eps(mechs, 2.1, 0.025, 1, 10, 1e-5, ORDERS)
    print('mechanisms %r, score z = 2.1, fixed rho = 0.025, eta = 1, mean 10: eps\' = %.12g' % (mechs, e))
    for i, (q, T, z) in enumerate(mechs):
        print('alone', i, '%.12g' % search_eps([(q, T, z)], 1e9, 0.025, 1, 10, 1e-5, ORDERS))
