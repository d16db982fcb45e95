"""The helpfulness rank of a review (pure: no database, no clock).

The lower bound of the Wilson score interval (95 %) of the share of helpful votes: one
lucky vote (1 up, 0 down: 0.21) does not beat a hundred honest ones (10 up, 1 down: 0.62).
"""

import math

Z_95 = 1.959963984540054  # the standard normal quantile of 97.5 %


def wilson_lower_bound(helpful: int, unhelpful: int, z: float = Z_95) -> float:
    """The lower bound of the Wilson interval of helpful / (helpful + unhelpful); 0 without
    a helpful vote. Negative counts are refused (ValueError)."""
    if helpful < 0 or unhelpful < 0:
        raise ValueError("vote counts cannot be negative")
    n = helpful + unhelpful
    if helpful == 0:  # exactly 0 (the formula leaves rounding noise either side)
        return 0.0
    p = helpful / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    margin = z * math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)
    return max(0.0, (centre - margin) / (1 + z2 / n))
