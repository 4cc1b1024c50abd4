#!/usr/bin/env python3
"""BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.

Synthetic data sets that mimic the four real data sets on which private
tuning was found to fail (docs/constants.md, "The private search against
an independent DP-SGD"); they are generated, not the real data:

  returns.csv   n = 1800, d = 3: daily index returns with a tail index near
                2. r_t = 0.08 r_{t-1} - 0.05 r_{t-2} + 0.04 r_{t-5} + s xi_t,
                xi_t Student-t(2.2), s = 1; the features are the three
                lagged returns (r_{t-1}, r_{t-2}, r_{t-5}), the label r_t
                (squared loss). The returns are in percent, as such data
                usually are.
  counts.csv    n = 20000, d = 10: a health-survey count (doctor visits):
                y ~ negative binomial with mean exp(0.6 + a.b) and dispersion
                0.45 (many zeros, a long tail: label kurtosis about 40, as
                printed), a = 5 binary and 5 standard normal covariates
                (the binaries centred), squared loss on y.
  logistic.csv  n = 5000, d = 5: y = +1 with probability sigmoid(a.w*),
                else -1, a standard normal, w* = (0.8, -0.5, 0.3, 0, 0):
                the logistic loss at w0 = 0 is ln 2 on every row.
  small.csv     n = 200, d = 4: an expenditure survey: log-normal
                expenditure in thousands, y = exp(0.4 + a.b + 0.6 eps) with
                a standard normal, squared loss (235 rows in the real one).

Usage: python3 scripts/bench/tune_data.py OUTDIR   (seeded: the same files
every time; prints each file's n, d and the label's kurtosis)
"""
import os
import sys

import numpy as np


def kurtosis(y):
    z = (y - y.mean()) / y.std()
    return float(np.mean(z ** 4))


def write(path, A, y):
    with open(path, "w") as f:
        for a, v in zip(A, y):
            f.write(",".join("%.6g" % x for x in a) + ",%.6g\n" % v)
    print("%s: n = %d, d = %d, label kurtosis %.1f" % (os.path.basename(path), len(y), A.shape[1], kurtosis(y)))


def returns(rng):
    T, burn = 1800, 200
    r = np.zeros(burn + 5 + T)
    xi = rng.standard_t(2.2, size=len(r))
    for t in range(5, len(r)):
        r[t] = 0.08 * r[t - 1] - 0.05 * r[t - 2] + 0.04 * r[t - 5] + xi[t]
    t = np.arange(burn + 5, len(r))
    A = np.stack([r[t - 1], r[t - 2], r[t - 5]], axis=1)
    return A, r[t]


def counts(rng):
    n = 20000
    bins = rng.random((n, 5)) < np.array([0.5, 0.3, 0.2, 0.1, 0.6])
    A = np.concatenate([bins - bins.mean(axis=0), rng.standard_normal((n, 5))], axis=1)
    b = np.array([0.5, 0.3, -0.4, 0.8, 0.2, 0.3, -0.2, 0.1, 0.0, 0.25])
    mean = np.exp(0.6 + A @ b)
    k = 0.45
    y = rng.negative_binomial(k, k / (k + mean)).astype(float)
    return A, y


def logistic(rng):
    n = 5000
    A = rng.standard_normal((n, 5))
    w = np.array([0.8, -0.5, 0.3, 0.0, 0.0])
    p = 1 / (1 + np.exp(-A @ w))
    y = np.where(rng.random(n) < p, 1.0, -1.0)
    return A, y


def small(rng):
    n = 200
    A = rng.standard_normal((n, 4))
    b = np.array([0.3, 0.2, -0.15, 0.1])
    y = np.exp(0.4 + A @ b + 0.6 * rng.standard_normal(n))
    return A, y


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(31)
    for name, gen in (("returns", returns), ("counts", counts), ("logistic", logistic), ("small", small)):
        A, y = gen(rng)
        write(os.path.join(out, name + ".csv"), A, y)


if __name__ == "__main__":
    main()
