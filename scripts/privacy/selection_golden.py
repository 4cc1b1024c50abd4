#!/usr/bin/env python3
"""Golden values for dpso's privacy-profile accounting of a private
selection (solvers/accountant/selection.go, SelectionEpsilon), computed
independently of the Go code: no shared code and, step by step, another
route to the same bound. Python 3 with numpy, scipy and mpmath (Debian:
apt-get install python3-scipy python3-mpmath). Run:

    /usr/bin/python3 scripts/privacy/selection_golden.py

The bound (selection.go's theorem): K ~ a law with generating function phi,
the best of K runs of a base mechanism Q released; with eps2 the supremum
over y of ln phi'(F(y))/phi'(F'(y)) allowed by Q's profile,

    delta_A(eps1 + eps2) <= E[K] * delta_Q(eps1),

and after a rho_f-zCDP release, delta(eps) <= E[g(l)] with
g(t) = min(1, E[K] delta_Q(eps - t - eps2)) and P[l > t] <=
exp(-(t - rho_f)^2 / (4 rho_f)).

How each piece is computed here, against the Go code's way:

  delta_Q   Gaussian mechanism with noise multiplier z (mu = 1/z): the
            hockey-stick integral of N(0,1) against N(mu,1),
            int (p(x) - e^eps p'(x))_+ dx, by mpmath.quad at 30 digits on
            the half-line where the integrand is positive (Go: the closed
            form of Balle & Wang, tabulated on a 2^-10 grid). One step of
            the Poisson-subsampled Gaussian under replace-one: the
            hockey-stick integral of its two mixtures by mpmath.quad up to
            the root of the loss (Go: read off the composed PLD).
  E[K], phi' the law's pmf summed term by term (mpmath.nsum) for E[K] and
            phi'(z) = sum_k k p_k z^(k-1) (Go: closed forms); for the
            truncated negative binomial gamma is found from the mean by
            brentq on that sum (Go: bisection on the closed-form mean).
  eps2      for each eps3 (scipy minimize_scalar, bounded, plus a scan) the
            ratio phi'(1 - G)/phi'(1 - u(G)) maximised over 20001 values
            of G in [0, 1] (Go: the largest value at u's breakpoints,
            eps3 on the 2^-10 grid).
  eps'      without the zCDP release: eps2 + the root of
            E[K] delta_Q(eps1) = delta by brentq; with it, the continuous
            form E[g(l)] <= g(rho_f) + int_{rho_f}^inf P[l > t] dg(t), by
            scipy.integrate.quad with g's derivative in closed form for the
            Gaussian (Go: a sum on a 2^-9 grid with tails at left ends),
            then brentq.

Go's discretisations only raise the bound (tabulated profiles read at the
grid point below, tails at the left end of each cell), so the Go value is
at least the value here and exceeds it by little; the tests assert
golden <= go <= golden + 2e-3.
"""

import math

import mpmath
import numpy as np
from scipy import integrate, optimize, special

mpmath.mp.dps = 30


def delta_gauss(eps, z):
    """H_{e^eps}(N(0,1) || N(mu,1)), mu = 1/z, by quadrature: the integrand
    p(x) - e^eps p'(x) is positive for x < x* = mu/2 - eps/mu."""
    mu = mpmath.mpf(1) / z
    e = mpmath.mpf(eps)
    xs = mu / 2 - e / mu
    f = lambda x: mpmath.npdf(x) - mpmath.exp(e) * mpmath.npdf(x, mu, 1)
    return float(mpmath.quad(f, [-mpmath.inf, xs - 10, xs - 1, xs]))


def delta_gauss_fast(eps, z):
    """Vectorised closed form, used only inside the eps3 scan (checked
    against delta_gauss below)."""
    mu = 1.0 / z
    return special.ndtr(-eps / mu + mu / 2) - np.exp(eps) * special.ndtr(-eps / mu - mu / 2)


class Law:
    """A law of K by its pmf p_0, ..., p_kmax (the rest below 1e-18 of
    mass times k), tabulated once."""

    def __init__(self, pmf):
        ps, k = [], 0
        while True:
            p = pmf(k)
            ps.append(p)
            if k > 5 and (k + 1) * p < 1e-20:
                break
            k += 1
        self.p = np.array(ps)


def geometric(mean):
    g = 1.0 / mean
    return Law(lambda k: g * (1 - g) ** (k - 1) if k >= 1 else 0.0)


def tnb(eta, mean):
    """Papernot & Steinke's D_{eta,gamma}: p_k proportional to
    binom(k + eta - 1, k) (1 - gamma)^k, k >= 1; gamma from the mean by
    brentq on the series' mean."""
    w = lambda k, g: mpmath.binomial(k + eta - 1, k) * (1 - mpmath.mpf(g)) ** k

    def m(g):
        z = mpmath.nsum(lambda k: w(k, g), [1, mpmath.inf])
        return float(mpmath.nsum(lambda k: k * w(k, g), [1, mpmath.inf]) / z)

    g = optimize.brentq(lambda g: m(g) - mean, 1e-6, 1 - 1e-9, xtol=1e-15)
    z = mpmath.nsum(lambda k: w(k, g), [1, mpmath.inf])
    return Law(lambda k: float(w(k, g) / z) if k >= 1 else 0.0)


def poisson(mean):
    return Law(lambda k: float(mpmath.exp(-mean) * mpmath.mpf(mean) ** k / mpmath.factorial(k)))


def phi_prime(law, zs):
    """phi'(z) = sum_k k p_k z^(k-1) on an array of z, by Horner."""
    zs = np.asarray(zs, dtype=float)
    c = np.arange(len(law.p)) * law.p  # coefficient of z^(k-1) is c[k]
    out = np.zeros_like(zs)
    for k in range(len(c) - 1, 0, -1):
        out = out * zs + c[k]
    return out


def mean_of(law):
    return float(phi_prime(law, [1.0])[0])


G = np.linspace(0, 1, 20001)


def log_ratio(law, e3, d3, dphi):
    u = np.minimum(1, np.minimum(np.exp(e3) * G + d3, 1 - np.exp(-e3) * (1 - G - d3)))
    a = dphi(1 - G)
    b = dphi(1 - u)
    return float(np.max(np.log(a / b)))


def eps2_of(law, z):
    # phi' on a fine table of z for speed: interpolated in z is not safe,
    # so evaluate exactly on the points needed.
    dphi = lambda zz: phi_prime(law, zz)
    f = lambda e3: log_ratio(law, e3, max(0.0, float(delta_gauss_fast(e3, z))), dphi)
    scan = np.linspace(0, 6, 61)
    vals = [f(e) for e in scan]
    i = int(np.argmin(vals))
    lo, hi = scan[max(i - 1, 0)], scan[min(i + 1, len(scan) - 1)]
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6})
    return min(res.fun, min(vals))


def eps_prime(law, z, rho_f, delta):
    mean = mean_of(law)
    e2 = eps2_of(law, z)
    if rho_f == 0:
        e1 = optimize.brentq(lambda e: mean * delta_gauss(e, z) - delta, -2, 60, xtol=1e-12)
        return e2 + e1
    mu = 1.0 / z

    def ddelta(s):  # -d/ds delta_Q(s) = e^s Phi(-s/mu - mu/2)
        return math.exp(s) * special.ndtr(-s / mu - mu / 2)

    # g reaches 1 where mean delta_Q(s) = 1, at s = s1: for t >= eps - e2 - s1.
    s1 = optimize.brentq(lambda s: mean * float(delta_gauss_fast(s, z)) - 1, -60, 60)
    tail = lambda t: math.exp(-(t - rho_f) ** 2 / (4 * rho_f))

    def bound(eps):
        g0 = min(1.0, mean * float(delta_gauss_fast(eps - rho_f - e2, z)))
        t1 = eps - e2 - s1
        if t1 <= rho_f:
            return 1.0
        val, _ = integrate.quad(lambda t: tail(t) * mean * ddelta(eps - t - e2), rho_f, t1,
                                epsabs=1e-15, epsrel=1e-11, limit=500)
        return g0 + val

    return optimize.brentq(lambda e: bound(e) - delta, 0.5, 60, xtol=1e-10)


def delta_subsampled(eps, sigma, q):
    """One step of the Poisson-subsampled Gaussian under replace-one:
    P = (1-q)N(0,s^2) + qN(-1,s^2) against P' = (1-q)N(0,s^2) + qN(1,s^2).
    Its loss ln p/p' decreases in x, so H_{e^eps}(P||P') integrates
    p - e^eps p' over x < x*(eps), x* by mpmath.findroot; by symmetry
    (x -> -x swaps P and P') the other direction is the same."""
    s = mpmath.mpf(sigma)
    qq = mpmath.mpf(q)
    e = mpmath.mpf(eps)
    p = lambda x: (1 - qq) * mpmath.npdf(x, 0, s) + qq * mpmath.npdf(x, -1, s)
    pp = lambda x: (1 - qq) * mpmath.npdf(x, 0, s) + qq * mpmath.npdf(x, 1, s)
    loss = lambda x: mpmath.log(p(x)) - mpmath.log(pp(x))
    # x* lies well inside (-60, 60) for the sigma used here.
    lo, hi = mpmath.mpf(-60), mpmath.mpf(60)
    if loss(lo) <= e:
        return 0.0
    if loss(hi) >= e:
        return float(1 - mpmath.exp(e)) if e < 0 else 0.0
    xs = mpmath.findroot(lambda x: loss(x) - e, (lo, hi), solver="anderson")
    f = lambda x: p(x) - mpmath.exp(e) * pp(x)
    return max(0.0, float(mpmath.quad(f, [-mpmath.inf, xs - 10, xs - 2, xs])))


def eps_prime_subsampled(law, sigma, q, delta):
    mean = mean_of(law)
    dphi = lambda zz: phi_prime(law, zz)
    f = lambda e3: log_ratio(law, e3, delta_subsampled(e3, sigma, q), dphi)
    scan = np.linspace(0, 3, 61)
    vals = [f(e) for e in scan]
    i = int(np.argmin(vals))
    lo, hi = scan[max(i - 1, 0)], scan[min(i + 1, len(scan) - 1)]
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6})
    e2 = min(res.fun, min(vals))
    e1 = optimize.brentq(lambda e: mean * delta_subsampled(e, sigma, q) - delta, 0, 20, xtol=1e-12)
    return e2, e2 + e1


CASES = [
    # (name, law, z, rho_f, delta)
    ("geometric mean 2, z 1.2", lambda: geometric(2), 1.2, 0.0, 1e-5),
    ("geometric mean 10, z 1.7", lambda: geometric(10), 1.7, 0.0, 1e-5),
    ("tnb eta 0.5 mean 5, z 1.5", lambda: tnb(0.5, 5), 1.5, 0.0, 1e-6),
    ("poisson mean 4, z 2", lambda: poisson(4), 2.0, 0.0, 1e-5),
    ("geometric mean 10, z 1.7, rho_f 0.01", lambda: geometric(10), 1.7, 0.01, 1e-5),
]


def main():
    # The quadrature profile against the closed form (a check of this
    # script, not of Go).
    for e, z in [(0.5, 1.2), (3.0, 1.7), (-0.3, 2.0)]:
        a, b = delta_gauss(e, z), float(delta_gauss_fast(e, z))
        assert abs(a - b) <= 1e-12 * max(1, abs(a)) + 1e-15, (e, z, a, b)
    for name, mk, z, rho_f, delta in CASES:
        law = mk()
        print(f"{name}: E[K] = {mean_of(law):.12g}, eps2 = {eps2_of(law, z):.9f}, "
              f"eps' = {eps_prime(law, z, rho_f, delta):.9f}")
    # A non-Gaussian base: one subsampled Gaussian step (sigma 1, q 0.3,
    # replace-one), K geometric with mean 10, delta 1e-5.
    e2, e = eps_prime_subsampled(geometric(10), 1.0, 0.3, 1e-5)
    print(f"subsampled sigma 1 q 0.3, geometric mean 10: eps2 = {e2:.9f}, eps' = {e:.9f}")


if __name__ == "__main__":
    main()
