"""What a report says beside its flags: how many chance alone would give at a threshold."""

from __future__ import annotations

import pytest

from service.analysis.fair_play.findings import by_chance


def test_flags_by_chance_are_the_normal_tail_above_the_threshold_times_the_subjects_scored() -> None:
    # the one-sided tail of the standard normal: P(Z >= 2) = 0.02275, P(Z >= 3) = 0.00135 (two-sided doubles them)
    assert by_chance(2.0, 132) == pytest.approx(3.003, abs=1e-3)
    assert by_chance(3.0, 132) == pytest.approx(0.178, abs=1e-3)
    assert by_chance(2.0, 0) == 0.0
