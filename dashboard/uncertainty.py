"""How far a rate can be trusted: the Wilson score interval of a share, and the one sample size below which the
dashboard says "too few" beside a rate (docs/dashboard.md, "Sample sizes").

A rate over 2 games ("100 %") is drawn with its interval (here 34-100 %) and flagged: it is an anecdote, not a
finding. The interval treats the n things a rate is over (games, rounds, turns) as independent tries; turns of
one game are not quite independent, so for a rate over turns or rounds the interval is, if anything, too narrow.
"""

from __future__ import annotations

import math

# Below this many games (or rounds, turns: whatever a rate's n counts) a rate is flagged "too few": its 95 %
# interval is then still wider than about +-30 points. The one place this number lives.
TOO_FEW = 10
Z = 1.96  # 95 % (two-sided) normal quantile
LEVEL = "95 %"
# Student's t 95 % (two-sided) quantiles for 1 to 30 degrees of freedom, as every statistics table gives them: a mean
# of a few values, its spread estimated from those same values, needs them (at 2 values the half-width is 12.7
# standard errors, not 1.96). Beyond 30, ``t_quantile`` adds the first term of the Cornish-Fisher expansion to Z
# (2.039 at 30 against 2.042). A table rather than scipy: 30 numbers against a dependency of tens of megabytes.
T_975 = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228),
    *(2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086),
    *(2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042),
)


def t_quantile(df: int) -> float:
    """The 95 % two-sided quantile of Student's t with ``df`` (at least 1) degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    return T_975[df - 1] if df <= len(T_975) else Z + (Z**3 + Z) / (4 * df)


def wilson(share: float | None, n: float | int | None) -> tuple[float, float] | None:
    """The 95 % Wilson score interval (low, high), both in 0..1, of a share observed over ``n`` tries; None when
    there is no share or no tries. Unlike share +- 1.96 standard errors it never leaves 0..1 and is not zero
    wide at 0 % or 100 %."""
    if share is None or not n or n <= 0:
        return None
    p = min(1.0, max(0.0, float(share)))
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def too_few(n: float | int | None) -> bool:
    """Whether a rate over ``n`` is too few to read a tendency from (``TOO_FEW``)."""
    return not n or n < TOO_FEW


def interval_text(share: float | None, n: float | int | None) -> str:
    """The interval as people read it: "34-100 %", or "" when there is none."""
    found = wilson(share, n)
    if found is None:
        return ""
    low, high = found
    return f"{100 * low:.0f}\u2013{100 * high:.0f}%"


def caveat(n: float | int | None, unit: str = "games") -> str:
    """What to say beside a rate over ``n``: "too few games" below the threshold, else nothing."""
    return f"too few {unit}" if too_few(n) else ""


NOTE = (
    f"Whiskers: the {LEVEL} Wilson interval of each rate. Pale bars are over fewer than {TOO_FEW} "
    "(too few to read a tendency from)."
)
