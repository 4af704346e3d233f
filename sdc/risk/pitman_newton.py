"""ARX's Newton-Raphson solver for Pitman's likelihood equations, reimplemented from its rule.

The maximum-likelihood estimates (theta, alpha) of Pitman's sampling formula (Hoshino 2001,
eq. 3) solve the two likelihood equations g(theta, alpha) = 0 with

    g_1 = sum_{i=1}^{u-1} 1 / (theta + i alpha) - (psi(theta + n) - psi(theta + 1)),
    g_2 = sum_{i=1}^{u-1} i / (theta + i alpha) - sum_j c_j (psi(j - alpha) - psi(1 - alpha)),

(psi the digamma function; c_j classes of size j, u classes, n records) and the Hessian H
of the log-likelihood (the same sums with squared denominators and trigamma). With
x = theta / alpha the sums over i have closed forms (psi(x + u) - psi(x + 1) = sum 1 / (x + i)):

    S_1 = sum 1 / (theta + i alpha)   = (psi(x + u) - psi(x + 1)) / alpha,
    S_2 = sum 1 / (theta + i alpha)^2 = (psi_1(x + 1) - psi_1(x + u)) / alpha^2,
    sum i / (theta + i alpha)         = ((u - 1) - theta S_1) / alpha,
    sum i / (theta + i alpha)^2       = (S_1 - theta S_2) / alpha,
    sum i^2 / (theta + i alpha)^2     = ((u - 1) - 2 theta S_1 + theta^2 S_2) / alpha^2,

so one evaluation costs O(number of distinct class sizes), not O(u).

The rule ARX follows (``ModelPitman`` with ``ARXSolverConfiguration``'s defaults and the
``NewtonRaphson2D`` solver of de.linearbits.newtonraphson 0.0.1, read at arx master aacd487):

* the first try starts at the moment-type guess (Hoshino 2001, as ARX writes it):
  g = c_1 (c_1 - 1) / c_2 (c_2 = 1 when there is no class of size 2),
  theta_0 = (n u g - c_1 (n - 1)(2u + g)) / (2 c_1 u + c_1 g - n g),
  alpha_0 = (theta_0 (c_1 - n) + (n - 1) c_1) / (n u);
  the next tries start at the 16 points (a, b), a, b in {0, 0.33, 0.66, 0.99} (a outer);
* each iteration evaluates g and H at the point; |g_1| <= 1e-6 and |g_2| <= 1e-6 (absolute)
  is a root, returned as it is. Otherwise the Newton step point -= H^-1 g is taken; then the
  whole solve stops without a root when the 16th prepared start is in use; a step to
  theta < 0 (ARX's only constraint) or to NaN ends the try, as does the step after the
  1000th of a try; at most 17 x 1000 evaluations in all;
* ARX runs this with the closed forms; when that gives no root, or a root whose likelihood
  equations, summed term by term, exceed 1e-6, it runs the same solve with the term-by-term sums;
* the estimate is Gamma(theta + 1) / Gamma(theta + alpha) N^alpha, computed as exp(lgamma
  difference) and as a ratio of Gamma values, each kept when in [0, N], the larger of the two;
  none (NaN) when alpha = 0 or neither is in [0, N].

ARX also stops a try after 100 ms and the solve after 1 s of wall time; sdc has no clock
limits (decisions must not depend on the machine's load), so on a slow machine ARX may give
up where sdc finds the root. A root found by the rule is polished (Newton steps with the
term-by-term sums while they shrink the equations) so that it is the maximum to machine
precision, not ARX's first point within 1e-6; the decision (root or none) is ARX's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gamma, gammaln, zeta

__all__ = ["NewtonPitman", "moment_start", "newton_pitman", "paper_root", "pitman_estimate_arx", "ACCURACY",
           "ITERATIONS_PER_TRY", "PREPARED_STARTS", "trigamma"]

#: ARX's ``ARXSolverConfiguration.getDefaultAccuracy()``: |g_1|, |g_2| at most this is a root.
ACCURACY = 1e-6
#: ARX's ``getDefaultIterationsPerTry()``.
ITERATIONS_PER_TRY = 1000
#: ARX's ``getDefaultStartValues()``: d1, d2 = 0, 0.33, 0.66, 0.99 (d1 outer), summed as ARX does.
PREPARED_STARTS: tuple[tuple[float, float], ...] = tuple(
    (a, b) for a in (0.0, 0.33, 0.33 + 0.33, 0.33 + 0.33 + 0.33) for b in (0.0, 0.33, 0.33 + 0.33, 0.33 + 0.33 + 0.33))


@dataclass(frozen=True, slots=True)
class NewtonPitman:
    """The solver's outcome: the root (NaN when none), ARX's unpolished root, the try that found
    it (0 the moment start, 1-16 the prepared starts), the evaluations, and whether the
    term-by-term sums were needed."""

    theta: float
    alpha: float
    arx_theta: float
    arx_alpha: float
    tries: int
    evaluations: int
    iterative: bool

    @property
    def converged(self) -> bool:
        return not math.isnan(self.theta)


def trigamma(x: np.ndarray) -> np.ndarray:
    """psi_1(x) = sum_{k>=0} 1 / (x + k)^2 for every x but the poles 0, -1, -2, ... (inf there):
    zeta(2, x), Hurwitz's zeta function, for x >= 0, and the reflection psi_1(x) =
    pi^2 / sin^2(pi x) - psi_1(1 - x) (Abramowitz and Stegun 6.4.7) for x < 0 (scipy's zeta
    takes time linear in |x| there: 15 ms at x = -1e6). The same function as
    ``scipy.special.polygamma(1, x)``, without its Python wrapper (about 40 us a call; Newton's
    iterations make hundreds of thousands of calls in a search)."""
    x = np.asarray(x, dtype=np.float64)
    neg = x < 0
    if not neg.any():
        return zeta(2.0, x)
    v = zeta(2.0, np.where(neg, 1.0 - x, x))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.sin(np.pi * (x - np.round(x)))
        return np.where(neg, np.pi * np.pi / (s * s) - v, v)


class _Equations:
    """g and H of Pitman's log-likelihood for one class-size histogram (sizes i, counts c)."""

    def __init__(self, i: np.ndarray, c: np.ndarray, n: int) -> None:
        keep = i != 1
        self.j, self.cj = i[keep].astype(np.float64), c[keep].astype(np.float64)
        self.u = float(c.sum())
        self.n = float(n)
        self._iu: np.ndarray | None = None
        self._lw: tuple[np.ndarray, np.ndarray] | None = None

    def closed(self, t: float, a: float) -> tuple[float, float, float, float, float]:
        """(g_1, g_2, H_11, H_12, H_22) from the closed forms: one digamma and one trigamma call
        on [x + u, x + 1, theta + n, theta + 1, 1 - alpha, j - alpha for each size j > 1]."""
        u1 = self.u - 1.0
        t, a = np.float64(t), np.float64(a)
        with np.errstate(all="ignore"):
            x = t / a
            head = np.array([x + self.u, x + 1.0, self.n + t, t + 1.0, 1.0 - a])
            args = np.concatenate([head, self.j - a])
            ps, tr = digamma(args), trigamma(args)
            s1 = (ps[0] - ps[1]) / a
            s2 = (tr[1] - tr[0]) / (a * a)
            o3 = (u1 - t * s1) / a
            d5 = (s1 - t * s2) / a
            d3 = (u1 - 2.0 * t * s1 + t * t * s2) / (a * a)
            o2, d2 = ps[2] - ps[3], tr[3] - tr[2]
            o4 = np.dot(self.cj, ps[5:] - ps[4])
            d4 = np.dot(self.cj, tr[4] - tr[5:])
        return float(s1 - o2), float(o3 - o4), float(d2 - s2), float(-d5), float(-d3 - d4)

    def iterative(self, t: float, a: float) -> tuple[float, float, float, float, float]:
        """(g_1, g_2, H_11, H_12, H_22) with the sums over the u classes and the class sizes term
        by term (vectorised), the sums over the n records by digamma and trigamma."""
        if self._iu is None:
            self._iu = np.arange(1.0, self.u)
            big = int(self.j.max()) if self.j.size else 1
            ls = np.arange(1.0, big)
            # classes with size > l, for each l < the largest size (size-1 classes add nothing)
            order = np.argsort(self.j)
            js, cs = self.j[order], self.cj[order]
            above = np.concatenate([np.cumsum(cs[::-1])[::-1], [0.0]])
            self._lw = (ls, above[np.searchsorted(js, ls, side="right")])
        iu = self._iu
        ls, w = self._lw
        with np.errstate(all="ignore"):
            r = 1.0 / (t + iu * a)
            r2 = r * r
            k = 1.0 / (ls - a)
            o1, o3 = float(r.sum()), float(np.dot(iu, r))
            d1, d5, d3 = float(r2.sum()), float(np.dot(iu, r2)), float(np.dot(iu * iu, r2))
            o4, d4 = float(np.dot(w, k)), float(np.dot(w, k * k))
            # sum_{i=1}^{n-1} 1 / (theta + i)^(1, 2) by digamma and trigamma: n terms each otherwise
            o2 = float(digamma(self.n + t) - digamma(t + 1.0))
            d2 = float(zeta(2.0, t + 1.0) - zeta(2.0, self.n + t))
        return o1 - o2, o3 - o4, d2 - d1, -d5, -d3 - d4


def moment_start(i: np.ndarray, c: np.ndarray, n: int) -> tuple[float, float]:
    """ARX's initial guess (theta_0, alpha_0) (module docstring); NaN/inf passed on as ARX does."""
    c1 = float(c[i == 1].sum())
    c2 = float(c[i == 2].sum()) or 1.0
    u = float(c.sum())
    g = c1 * (c1 - 1.0) / c2
    with np.errstate(all="ignore"):
        den = np.float64((2.0 * c1 * u) + (c1 * g)) - (n * g)
        t = float(np.float64((n * u * g) - (c1 * (n - 1.0) * ((2.0 * u) + g))) / den)
        a = float(np.float64((t * (c1 - n)) + ((n - 1.0) * c1)) / np.float64(n * u))
    return t, a


def _arx_space(t: float, a: float) -> bool:
    return t >= 0  # ARX's constraint theta >= 0 (a NaN fails it too)


def _paper_space(t: float, a: float) -> bool:
    return 0 < a < 1 and t > -a  # Hoshino's space


def _solve(f, start: tuple[float, float], ok=_arx_space) -> tuple[float, float, int, int]:  # noqa: ANN001
    """ARX's NewtonRaphson2D loop (module docstring): (theta, alpha, try, evaluations); a step
    failing ``ok`` ends a try."""
    total, offset, tries = 0, 0, 0
    limit = (len(PREPARED_STARTS) + 1) * ITERATIONS_PER_TRY
    while total <= limit:
        if tries == 0:
            t, a = start
        else:
            t, a = PREPARED_STARTS[offset]
            offset += 1
        tries += 1
        it = 0
        while True:
            total += 1
            g1, g2, h11, h12, h22 = f(t, a)
            if abs(g1) <= ACCURACY and abs(g2) <= ACCURACY:
                return t, a, tries - 1, total
            det = h11 * h22 - h12 * h12
            with np.errstate(all="ignore"):
                step_t = (h22 * g1 - h12 * g2) / np.float64(det)
                step_a = (h11 * g2 - h12 * g1) / np.float64(det)
            t, a = t - float(step_t), a - float(step_a)
            if offset == len(PREPARED_STARTS):
                return math.nan, math.nan, tries - 1, total
            if not ok(t, a):
                break
            if math.isnan(a) or it >= ITERATIONS_PER_TRY:
                break
            it += 1
    return math.nan, math.nan, tries - 1, total


def _polish(eq: _Equations, t: float, a: float, ok=_arx_space) -> tuple[float, float]:  # noqa: ANN001
    """Newton steps with the term-by-term sums while they shrink max |g| (at most 20)."""
    g1, g2, h11, h12, h22 = eq.iterative(t, a)
    err = max(abs(g1), abs(g2))
    for _ in range(20):
        det = h11 * h22 - h12 * h12
        if not (det != 0 and math.isfinite(det)):
            break
        nt, na = t - (h22 * g1 - h12 * g2) / det, a - (h11 * g2 - h12 * g1) / det
        if not (ok(nt, na) and na < 1 and nt + (eq.u - 1) * min(na, 0.0) > 0):
            break
        q = eq.iterative(nt, na)
        e = max(abs(q[0]), abs(q[1]))
        if not e < err:
            break
        t, a, err = nt, na, e
        g1, g2, h11, h12, h22 = q
    return t, a


def newton_pitman(i: np.ndarray, c: np.ndarray, n: int, polish: bool = True) -> NewtonPitman:
    """Pitman's (theta, alpha) by ARX's rule (module docstring), from the class-size histogram
    (sizes ``i`` increasing, ``c`` classes of each). Needs a class of size 1 and two classes."""
    eq = _Equations(i, c, n)
    start = moment_start(i, c, n)
    t, a, tries, ev = _solve(eq.closed, start)
    iterative = False
    if math.isnan(t) or math.isnan(a):
        iterative = True
    else:
        g1, g2, *_ = eq.iterative(t, a)
        iterative = not (abs(g1) <= ACCURACY and abs(g2) <= ACCURACY)
    if iterative:
        t, a, tries, ev2 = _solve(eq.iterative, start)
        ev += ev2
    if math.isnan(t) or math.isnan(a):
        return NewtonPitman(math.nan, math.nan, math.nan, math.nan, tries, ev, iterative)
    pt, pa = _polish(eq, t, a) if polish else (t, a)
    return NewtonPitman(pt, pa, t, a, tries, ev, iterative)


def paper_root(i: np.ndarray, c: np.ndarray, n: int) -> tuple[float, float, bool]:
    """A root of the likelihood equations inside Hoshino's space 0 < alpha < 1, theta > -alpha
    by the same Newton iterations (a step leaving the space ends a try), polished; with whether
    the Hessian there is negative definite (a local maximum). NaN when none is found."""
    eq = _Equations(i, c, n)
    t, a, _, _ = _solve(eq.closed, moment_start(i, c, n), _paper_space)
    if math.isnan(t) or math.isnan(a):
        return math.nan, math.nan, False
    t, a = _polish(eq, t, a, _paper_space)
    g1, g2, h11, h12, h22 = eq.iterative(t, a)
    return t, a, bool(h11 < 0 and h11 * h22 - h12 * h12 > 0)


def pitman_estimate_arx(theta: float, alpha: float, N: int) -> float:
    """ARX's estimate Gamma(theta + 1) / Gamma(theta + alpha) N^alpha (module docstring)."""
    if math.isnan(theta) or math.isnan(alpha) or alpha == 0:
        return math.nan
    with np.errstate(all="ignore"):
        # Apache Commons' logGamma is NaN for x <= 0; its gamma is defined for negative non-integers
        lg = (float(gammaln(theta + 1.0)) - float(gammaln(theta + alpha))) if theta + alpha > 0 else math.nan
        v1 = math.exp(lg) * float(np.power(np.float64(N), alpha)) if math.isfinite(lg) and lg < 709 else math.nan
        v2 = float(np.float64(gamma(theta + 1.0)) / np.float64(gamma(theta + alpha)) * np.power(np.float64(N), alpha))
    v1 = v1 if 0 <= v1 <= N else math.nan
    v2 = v2 if 0 <= v2 <= N else math.nan
    if math.isnan(v1) and math.isnan(v2):
        return math.nan
    if math.isnan(v1) or math.isnan(v2):
        return v2 if math.isnan(v1) else v1
    return max(v1, v2)
