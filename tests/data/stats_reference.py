# Reference values for the unit tests of src/cli/stats.rs, computed independently of that code
# (needs numpy and scipy in a throwaway virtual environment): python3 stats_reference.py
# Independent reference values: the generalised LLR by direct constrained maximisation of the
# multinomial likelihood (scipy SLSQP on the primal problem), Elo from the textbook formulas.
import numpy as np
from scipy.optimize import minimize
from scipy.special import erf
LN10 = np.log(10)

def mle(phat, scores, constraint):
    # maximise sum phat log p, sum p = 1, constraint(p) = 0
    x0 = np.array(phat)
    cons = [{'type': 'eq', 'fun': lambda p: np.sum(p) - 1.0},
            {'type': 'eq', 'fun': constraint}]
    r = minimize(lambda p: -np.sum(phat * np.log(p)), x0, method='SLSQP', constraints=cons,
                 bounds=[(1e-12, 1)] * len(phat), options={'ftol': 1e-15, 'maxiter': 1000})
    assert r.success, r
    return r.x

def glr(counts, scores, c0, c1):
    counts = np.array([c if c > 0 else 1e-3 for c in counts], float)
    n = counts.sum(); phat = counts / n; s = np.array(scores)
    p0 = mle(phat, s, lambda p: c0(p, s)); p1 = mle(phat, s, lambda p: c1(p, s))
    return n * np.sum(phat * (np.log(p1) - np.log(p0)))

def logistic(e): return 1 / (1 + 10 ** (-e / 400))
def mean_con(target): return lambda p, s: np.dot(p, s) - target
def norm_con(t):
    def f(p, s):
        mu = np.dot(p, s); sd = np.sqrt(np.dot(p, (s - mu) ** 2)); return (mu - 0.5) - t * sd
    return f

T = [0, .5, 1]; P = [0, .25, .5, .75, 1]
def penta(ll, ld, wl, dd, wd, ww): return [ll, ld, wl + dd, wd, ww]
cases = [
  ("penta normalized fastchess1", penta(365, 16618, 36029, 200, 16974, 390), P, 'n', 0, 2),
  ("penta normalized fastchess2", penta(127, 4883, 10311, 401, 5150, 104), P, 'n', -1.75, 0.25),
  ("penta logistic fastchess1", penta(223, 9863, 20279, 1000, 10037, 246), P, 'l', 0.5, 2.5),
  ("tri normalized fastchess1 (L,D,W)", [36027, 68692, 36433], T, 'n', 0, 2),
  ("tri logistic fastchess1", [21184, 40708, 21404], T, 'l', 0.5, 2.5),
  ("penta normalized small", penta(3, 5, 4, 6, 7, 5), P, 'n', 0, 10),
  ("penta logistic small", penta(3, 5, 4, 6, 7, 5), P, 'l', 0, 10),
  ("penta normalized zeros", penta(0, 2, 1, 3, 9, 4), P, 'n', 0, 20),
  ("tri normalized small", [20, 10, 30], T, 'n', 0, 10),
  ("tri logistic small", [20, 10, 30], T, 'l', 0, 10),
]
for name, counts, scores, model, e0, e1 in cases:
    if model == 'n':
        f = np.sqrt(2) if len(scores) == 5 else 1.0
        c0, c1 = norm_con(f * e0 / (800 / LN10)), norm_con(f * e1 / (800 / LN10))
    else:
        c0, c1 = mean_con(logistic(e0)), mean_con(logistic(e1))
    print(f"{name}: LLR {glr(counts, scores, c0, c1):.6f}")

def elo(s): return -400 * np.log10(1 / s - 1)
def est(counts, scores, pairf):
    c = np.array(counts, float); n = c.sum(); p = c / n; s = np.array(scores)
    mu = p @ s; var = p @ (s - mu) ** 2; sd = np.sqrt(var / n); z = 1.959963984540054
    e = elo(mu); err = (elo(mu + z * sd) - elo(mu - z * sd)) / 2
    ne = lambda x: (x - 0.5) / np.sqrt(pairf * var) * 800 / LN10
    los = (1 - erf(-(mu - 0.5) / np.sqrt(2 * var / n))) / 2
    return e, err, ne(mu), (ne(mu + z * sd) - ne(mu - z * sd)) / 2, los
print("penta elo fastchess1", est(penta(34, 54, 31, 32, 64, 75), P, 2))
print("penta elo small", est(penta(3, 5, 4, 6, 7, 5), P, 2))
print("tri elo fastchess2 (L,D,W)", est([96, 111, 136], T, 1))
