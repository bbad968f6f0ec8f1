# Independent computation of the pentanomial GSPRT LLRs (fishtest's
# LLR_logistic and LLR_normalized) in 40-digit decimal arithmetic, with
# Newton's method for the secular equation (the Go code bisects in float64).
from decimal import Decimal as D, getcontext
getcontext().prec = 40
def empirical(counts):
    reg = [D(c) if c else D('0.001') for c in counts]
    n = sum(reg); k = len(counts)
    return n, [D(i)/D(k-1) for i in range(k)], [r/n for r in reg]
def secular(c, p):
    lo, hi = -1/max(c), -1/min(c)
    x = (lo+hi)/2
    for _ in range(200):  # bisection to get close, then Newton
        f = sum(pi*ci/(1+x*ci) for pi, ci in zip(p, c))
        if f > 0: lo = x
        else: hi = x
        x = (lo+hi)/2
        if hi-lo < D('1e-12'): break
    for _ in range(50):
        f = sum(pi*ci/(1+x*ci) for pi, ci in zip(p, c))
        df = -sum(pi*ci*ci/(1+x*ci)**2 for pi, ci in zip(p, c))
        x = x - f/df
    return x
def mle_mean(a, p, s):
    c = [ai-s for ai in a]; x = secular(c, p)
    return [pi/(1+x*ci) for pi, ci in zip(p, c)]
def mle_t(a, p, t):
    k = len(a); P = [D(1)/k]*k
    for _ in range(100):
        mu = sum(Pi*ai for Pi, ai in zip(P, a)); var = sum(Pi*(ai-mu)**2 for Pi, ai in zip(P, a)); sd = var.sqrt()
        phi = [ai - D('0.5') - t*sd*(1+((ai-mu)/sd)**2)/2 for ai in a]
        x = secular(phi, p)
        P = [pi/(1+x*fi) for pi, fi in zip(p, phi)]
    return P
def llr(n, p, p0, p1): return n*sum(pi*((q1.ln())-(q0.ln())) for pi, q0, q1 in zip(p, p0, p1))
def score(elo): return 1/(1+D(10)**(-D(elo)/400))
import math
nt = D(800)/D(10).ln()
for counts, e0, e1 in [([197, 25, 577, 22, 179], 0, 10), ([203, 31, 538, 35, 193], -5, 5)]:
    n, a, p = empirical(counts)
    print(counts, e0, e1, 'logistic', llr(n, p, mle_mean(a, p, score(e0)), mle_mean(a, p, score(e1))))
    t0, t1 = D(2).sqrt()*D(e0)/nt, D(2).sqrt()*D(e1)/nt
    print(counts, e0, e1, 'normalized', llr(n, p, mle_t(a, p, t0), mle_t(a, p, t1)))
