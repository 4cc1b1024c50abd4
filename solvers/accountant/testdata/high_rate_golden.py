#!/usr/bin/env python3
"""Golden values of the Poisson-subsampled Gaussian's Renyi divergence at
sampling rates q >= 1/2, computed independently of dpso's Go code (no
shared code, a different method). Python 3 with mpmath only. Run:
python3 solvers/accountant/testdata/high_rate_golden.py

  add-remove : ln A_alpha, A_alpha = E_{z~N(0,s^2)}[((1-q) + q L(z))^alpha],
               L(z) = exp((2z - 1)/(2 s^2)) (Mironov, Talwar & Zhang 2019),
               as ln(1 + int N(0,s^2)(z) [((1-q) + q L)^alpha - 1] dz) so
               that a tiny ln A_alpha keeps its digits at large s.
  replace-one: D_alpha(P||Q) = ln(int P^a Q^(1-a))/(a-1),
               P = (1-q)N(0,s^2) + qN(-1,s^2), Q = (1-q)N(0,s^2) + qN(1,s^2),
               as ln(1 + int [P^a Q^(1-a) - Q]) / (a - 1).
Both by mpmath.quad (tanh-sinh) at 50 digits over [-60 s - alpha, 60 s +
alpha] cut at the breakpoints -alpha, -1, 0, 1, alpha and multiples of s.
"""
import mpmath as mp

mp.mp.dps = 50


def pts(s, alpha):
    s = mp.mpf(s)
    a = mp.mpf(alpha)
    xs = {-a, -1, 0, 1, a}
    for k in (-60, -30, -15, -8, -4, -2, -1, 1, 2, 4, 8, 15, 30, 60):
        xs.add(k * s)
    return sorted(xs)


def log_a_add(q, s, alpha):
    q, s, a = mp.mpf(q), mp.mpf(s), mp.mpf(alpha)

    def f(z):
        L = mp.exp((2 * z - 1) / (2 * s * s))
        return mp.npdf(z, 0, s) * (((1 - q) + q * L) ** a - 1)

    return mp.log1p(mp.quad(f, pts(s, alpha)))


def rdp_replace(q, s, alpha):
    q, s, a = mp.mpf(q), mp.mpf(s), mp.mpf(alpha)

    def P(x):
        return (1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, -1, s)

    def Q(x):
        return (1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, 1, s)

    def f(x):
        p, r = P(x), Q(x)
        return p ** a * r ** (1 - a) - r

    return mp.log1p(mp.quad(f, pts(s, alpha))) / (a - 1)


if __name__ == '__main__':
    for q, s, a in [(0.7, 2, 1.5), (0.7, 2, 3.25), (0.7, 2, 10.5), (0.99, 2, 1.5),
                    (0.7, 1e6, 1.5), (0.7, 1e6, 10.5), (0.5, 1e4, 1.5), (0.5, 1e4, 7.3)]:
        print('add', q, s, a, mp.nstr(log_a_add(q, s, a), 17))
    for q, s, a in [(0.7, 2, 1.5), (0.7, 2, 10.5), (0.7, 1e6, 1.5), (0.5, 1e4, 1.5)]:
        print('replace', q, s, a, mp.nstr(rdp_replace(q, s, a), 17))
