#!/usr/bin/env python3
"""Golden values for the replace-one accountant, computed independently of
dpso's Go code (no shared code, different methods). Python 3 with mpmath
only. Run: python3 solvers/accountant/testdata/replace_one_golden.py [what]

The mechanism: one step of the Poisson-subsampled Gaussian mechanism with
sampling rate q and noise multiplier sigma, under replace-one adjacency:
    P = (1-q) N(0, sigma^2) + q N(-1, sigma^2)
    Q = (1-q) N(0, sigma^2) + q N(+1, sigma^2)
(one record's clipped vector g replaced by g', |g|, |g'| <= 1: the sampled
components are at most 2 apart, each 1 from the unsampled one).

  step   : delta(eps) of one step, exactly: the privacy loss l(x) = ln P/Q is
           decreasing, so delta(eps) = P(X <= x*) - e^eps Q(X <= x*) with
           l(x*) = eps, x* by mpmath.findroot at 40 digits.
  rdp    : Renyi divergence D_alpha(P||Q) = ln(int P^a Q^(1-a))/(a-1) by
           mpmath.quad (tanh-sinh) at 30 digits over breakpoints.
  compose: eps'(delta) of T steps, bracketed: the privacy loss
           distribution under P is put on a grid of width h by
           "privacy buckets" -- every loss rounded UP to the grid (each
           bucket's mass is P's mass of {x : l(x) in (ih - h, ih]},
           computed from P's CDF at the inverse of l) gives a dominating
           distribution, hence an upper bound on delta(eps) of the
           composition; rounded DOWN a dominated one, a lower bound. The
           mass beyond the truncation points goes to +inf (upper) or is
           dropped (lower). The T-fold composition is a pure-Python
           radix-2 FFT of length 2^m, the bucket masses raised to the
           power T, and an inverse FFT (the window is wide enough that the
           wrapped mass is checked to be below 1e-30). eps'(delta) is then
           the smallest eps with delta(eps) <= delta, by bisection. The true
           eps' lies in [lower, upper]; the width is about T*h.
"""
import cmath
import math
import sys

import mpmath as mp


def pair(sigma, q):
    s = mp.mpf(sigma)
    q = mp.mpf(q)

    def phi(x, m):
        return mp.npdf(x, m, s)

    def P(x):
        return (1 - q) * phi(x, 0) + q * phi(x, -1)

    def Q(x):
        return (1 - q) * phi(x, 0) + q * phi(x, 1)

    def Pcdf(x):
        return (1 - q) * mp.ncdf(x / s) + q * mp.ncdf((x + 1) / s)

    def Qcdf(x):
        return (1 - q) * mp.ncdf(x / s) + q * mp.ncdf((x - 1) / s)

    def loss(x):
        return mp.log(P(x)) - mp.log(Q(x))

    return P, Q, Pcdf, Qcdf, loss


def step_delta(sigma, q, eps):
    mp.mp.dps = 40
    P, Q, Pcdf, Qcdf, loss = pair(sigma, q)
    eps = mp.mpf(eps)
    # l is decreasing: bracket the root, then solve.
    lo, hi = mp.mpf(-1), mp.mpf(1)
    while loss(lo) < eps:
        lo *= 2
    while loss(hi) > eps:
        hi *= 2
    x = mp.findroot(lambda t: loss(t) - eps, (lo, hi), solver='anderson')
    return Pcdf(x) - mp.exp(eps) * Qcdf(x)


def rdp(sigma, q, alpha):
    mp.mp.dps = 30
    P, Q, _, _, _ = pair(sigma, q)
    a = mp.mpf(alpha)
    s = mp.mpf(sigma)
    f = lambda x: mp.exp(a * mp.log(P(x)) + (1 - a) * mp.log(Q(x)))
    # The integrand's mass lies between -alpha and +1, a few sigma around.
    pts = [-mp.inf, -a - 40 * s, -a - 10 * s, -a, -1, 0, 1, 1 + 10 * s, 1 + 40 * s, mp.inf]
    A = mp.quad(f, pts)
    return mp.log(A) / (a - 1)


def fft(a, invert=False):
    n = len(a)
    j = 0
    for i in range(1, n):
        bit = n >> 1
        while j & bit:
            j ^= bit
            bit >>= 1
        j |= bit
        if i < j:
            a[i], a[j] = a[j], a[i]
    length = 2
    while length <= n:
        ang = 2 * math.pi / length * (1 if invert else -1)
        wl = cmath.exp(1j * ang)
        half = length // 2
        ws = [1 + 0j] * half
        for k in range(1, half):
            ws[k] = ws[k - 1] * wl
        for i in range(0, n, length):
            for k in range(half):
                u = a[i + k]
                v = a[i + k + half] * ws[k]
                a[i + k] = u + v
                a[i + k + half] = u - v
        length <<= 1
    if invert:
        for i in range(n):
            a[i] /= n
    return a


def buckets(sigma, q, h, lo_idx, hi_idx, up):
    """Masses of the one-step loss under P on the grid i*h, i in
    [lo_idx, hi_idx], every loss rounded up (up=True) or down; returns
    (masses, mass at +inf). In double precision with math.erfc."""
    s2 = sigma * sigma
    lq, l1q = math.log(q), math.log1p(-q)

    def inv(eps):
        # x with l(x) = eps: with a = e^{(-1/2 - x)/s2} the loss is
        # ln(1-q+qa) - ln(1-q+q c/a), c = e^{-1/s2}, so a is the positive
        # root of q a^2 + (1-q)(1-e^eps) a - q c e^eps = 0; by symmetry
        # (l(-x) = -l(x)) only eps >= 0 is solved.
        if eps < 0:
            return -inv(-eps)
        A = (1 - q) * math.expm1(eps)
        lnB = math.log(2 * q) + 0.5 * (eps - 1 / s2)
        if A > 0 and math.log(A) > lnB:
            r = math.exp(lnB - math.log(A))
            lnroot = math.log(A) + math.log1p(math.sqrt(1 + r * r))
        else:
            r = A / math.exp(lnB)
            lnroot = lnB + math.log(r + math.sqrt(1 + r * r))
        return -0.5 - s2 * (lnroot - lq - math.log(2))

    def Phi(z):
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def F(e):  # P(l >= e) = P(X <= inv(e))
        x = inv(e)
        return (1 - q) * Phi(x / sigma) + q * Phi((x + 1) / sigma)

    n = hi_idx - lo_idx + 1
    Fs = [F((lo_idx - 1 + k) * h) for k in range(n + 2)]  # Fs[k] = F((lo_idx-1+k) h)
    masses = [0.0] * n
    for k in range(n):
        if up:  # l in ((i-1)h, ih] -> i
            masses[k] = Fs[k] - Fs[k + 1]
        else:  # l in [ih, (i+1)h) -> i
            masses[k] = Fs[k + 1] - Fs[k + 2]
    if up:
        # Below the bottom: up to the bottom bucket; above the top: +inf.
        masses[0] += 1 - Fs[0]
        return masses, Fs[n]
    # Rounded down: everything at or above the top goes to the top bucket;
    # the mass below the bottom is dropped (it only lowers delta).
    masses[-1] = Fs[n]
    return masses, 0.0


def compose_eps(sigma, q, T, delta, h, lo_idx, hi_idx, m, wlo):
    """[lower, upper] bracket of eps'(delta) of T steps. The composed loss
    is kept on the window [wlo, wlo + 2^m h): one-step bucket i goes to
    position (i - c) mod 2^m with T c h = wlo, so a composed index J in the
    window lands at J - T c. The mass outside the window (it would wrap
    around) is below exp(-60) by Chernoff's bound with E_P[e^{+-l}] (the
    callers choose wlo <= -60 and the top >= 60 + T D_2)."""
    out = []
    N = 1 << m
    c = int(round(wlo / (h * T)))
    for up in (False, True):
        masses, inf1 = buckets(sigma, q, h, lo_idx, hi_idx, up)
        a = [0j] * N
        for k, p in enumerate(masses):
            a[(lo_idx + k - c) % N] += complex(p, 0)
        fft(a)
        for i in range(N):
            a[i] = a[i] ** T
        fft(a, invert=True)
        comp = [z.real for z in a]
        base = T * c
        inf_mass = -math.expm1(T * math.log1p(-inf1)) if inf1 < 1 else 1.0
        ls = [(base + j) * h for j in range(N)]

        def dlt(eps):
            d = inf_mass
            for l, p in zip(ls, comp):
                if l > eps and p > 0:
                    d += p * -math.expm1(eps - l)
            return d

        lo, hi = 0.0, 60.0
        for _ in range(50):
            mid = (lo + hi) / 2
            if dlt(mid) > delta:
                lo = mid
            else:
                hi = mid
        out.append(hi)
    return out


def loss_range(sigma, q, h, zs=12.0):
    """Grid indices covering the loss at x in [-1 - zs*sigma, zs*sigma]."""
    s2 = sigma * sigma
    lq, l1q = math.log(q), math.log1p(-q)

    def la(x, y):
        m = max(x, y)
        return m + math.log(math.exp(x - m) + math.exp(y - m))

    def loss(x):
        return la(l1q, lq + (-0.5 - x) / s2) - la(l1q, lq + (-0.5 + x) / s2)

    top = loss(-1 - zs * sigma)
    return -int(math.ceil(top / h)), int(math.ceil(top / h))


if __name__ == '__main__':
    what = sys.argv[1] if len(sys.argv) > 1 else 'all'
    if what in ('all', 'step'):
        for sigma, q, eps in [(0.77608, 0.0256, 0.5), (0.77608, 0.0256, 0.05), (2.0, 0.1, 0.1), (0.5, 0.3, 1.5)]:
            print('step', sigma, q, eps, mp.nstr(step_delta(sigma, q, eps), 17))
    if what in ('all', 'rdp'):
        for sigma, q, a in [(0.77608, 0.0256, 1.5), (0.77608, 0.0256, 2), (0.77608, 0.0256, 3.5), (0.77608, 0.0256, 8), (0.77608, 0.0256, 32), (4.0, 0.01, 20), (1.0, 0.2, 5.25)]:
            print('rdp', sigma, q, a, mp.nstr(rdp(sigma, q, a), 17))
    if what in ('all', 'compose'):
        # h = 2.5e-5 on a window [-26, 26.4) of 2^21 points: at T = 196 the
        # composed mass outside it is below e^{-24} (Chernoff with
        # E_P[e^{-l}] = 1 and E_P[e^{l}] = e^{D_2(P||Q)}, T D_2 < 1.2).
        h, m, wlo = 2.5e-5, 21, -26.0
        # dp-sgd at ε = 1 (q = 256/10000, T = 196): the add/remove-calibrated
        # multiplier 0.77608 and the replace-one-calibrated 0.8602554.
        for sigma, q, T, delta in [(0.77608, 0.0256, 196, 1e-5), (0.8602553796463461, 0.0256, 196, 1e-5)]:
            lo_idx, hi_idx = loss_range(sigma, q, h)
            print('compose', sigma, q, T, delta, 'h', h, compose_eps(sigma, q, T, delta, h, lo_idx, hi_idx, m, wlo))
