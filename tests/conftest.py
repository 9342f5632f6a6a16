"""Shared test set-up: Qt always offscreen, so tests never need a display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import HealthCheck, settings  # noqa: E402

# the default profile fits CI; `-m slow` runs the long property tests with their own
# example counts (10,000), and HYPOTHESIS_PROFILE=slow raises every other test's too
settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=10_000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
