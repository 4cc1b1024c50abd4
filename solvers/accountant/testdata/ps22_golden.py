#!/usr/bin/env python3
"""Golden values for tuning_test.go, computed independently of the Go code.

Plain Python (math only), written from Papernot & Steinke, "Hyperparameter
Tuning with Renyi Differential Privacy" (ICLR 2022, arXiv:2110.03620):

  * the truncated negative binomial D_{eta,gamma} of Definition 1 by its
    probability mass function, P[K=k] = (1-gamma)^k / (gamma^-eta - 1) *
    prod_{l<k} (l+eta)/(l+1) (eta = 0: the logarithmic law), its mean by
    summing k*P[K=k] over k (not the closed form the Go code uses), and
    gamma for a given mean by bisection on that sum;
  * Theorem 2 at each order lam > 1 of the grid, minimised over lamhat on
    the grid, then lowered by monotonicity in the order;
  * Theorem 6 (Poisson) with epshat = ln(1 + 1/(lam-1)) and deltahat from
    the base curve by Canonne, Kamath & Steinke 2020, Proposition 12 (with
    the KL bound), as the Go code's DeltaFromRDP states it;
  * the conversion to (eps', delta) by the same Proposition 12.

Run: python3 ps22_golden.py  (prints the values the test asserts).
"""
import math

def orders():
    return [1 + x / 10 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024]

def pmf(k, eta, gamma):
    if eta == 0:
        return (1 - gamma) ** k / (k * math.log(1 / gamma))
    p = (1 - gamma) ** k / (gamma ** (-eta) - 1)
    for l in range(k):
        p *= (l + eta) / (l + 1)
    return p

def mean_by_sum(eta, gamma):
    s, k = 0.0, 1
    while True:
        p = pmf(k, eta, gamma)
        s += k * p
        if k > 50 and k * p < 1e-18:
            return s
        k += 1

def gamma_for(eta, mean):
    lo, hi = 1e-9, 1.0 - 1e-12
    for _ in range(100):
        mid = (lo + hi) / 2
        if mean_by_sum(eta, mid) < mean:
            hi = mid
        else:
            lo = mid
    return lo

def thm2(os, rdp, eta, mean):
    g = gamma_for(eta, mean)
    out = []
    for lam, e in zip(os, rdp):
        best = min(e + (1 + eta) * (1 - 1 / lh) * eh + (1 + eta) * math.log(1 / g) / lh
                   + math.log(mean) / (lam - 1) for lh, eh in zip(os, rdp))
        out.append(best)
    return [min(out[j] for j in range(len(os)) if os[j] >= os[i]) for i in range(len(os))]

def delta_from(os, rdp, eps):
    best = math.inf
    for a, r in zip(os, rdp):
        ld = 0.5 * math.log(1 - math.exp(-r)) if r > 0 else -math.inf
        if a > 1.01:
            ld = min(ld, (a - 1) * (r - eps + math.log(1 - 1 / a)) - math.log(a))
        best = min(best, ld)
    return min(math.exp(best), 1.0)

def thm6(os, rdp, mean):
    out = [rdp[i] + mean * delta_from(os, rdp, math.log(1 + 1 / (lam - 1))) + math.log(mean) / (lam - 1)
           for i, lam in enumerate(os)]
    return [min(out[j] for j in range(len(os)) if os[j] >= os[i]) for i in range(len(os))]

def eps_from(os, rdp, delta):
    best = math.inf
    for a, r in zip(os, rdp):
        if delta ** 2 + math.expm1(-r) > 0:
            e = 0.0
        elif a > 1.01:
            e = r + math.log(1 - 1 / a) - math.log(delta * a) / (a - 1)
        else:
            continue
        best = min(best, e)
    return max(best, 0.0)

def procedure_eps(rho, eta, mean, delta, os):
    rdp = [rho * a for a in os]
    out = thm6(os, rdp, mean) if eta == math.inf else thm2(os, rdp, eta, mean)
    return eps_from(os, out, delta)

if __name__ == "__main__":
    os = orders()
    for eta, mean in [(0, 10), (1, 10), (2, 10), (0.5, 4), (math.inf, 10)]:
        print("eta=%r mean=%r gamma=%.15g eps'(rho=0.15, delta=1e-5)=%.12g"
              % (eta, mean, gamma_for(eta, mean) if eta != math.inf else float('nan'),
                 procedure_eps(0.15, eta, mean, 1e-5, os)))
    # The largest candidate rho whose procedure meets eps' = 4.37718 at
    # delta = 1e-5 (geometric K, mean 10), by bisection.
    lo, hi = 1e-6, 0.5
    for _ in range(80):
        mid = (lo + hi) / 2
        if procedure_eps(mid, 1, 10, 1e-5, os) <= 4.37718:
            lo = mid
        else:
            hi = mid
    print("largest rho (eta=1, mean=10) = %.9g" % lo)
