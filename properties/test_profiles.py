"""The Hypothesis profiles: registered, and chosen by URLWB_HYPOTHESIS_PROFILE, then CI."""

import pytest
from hypothesis import settings

from properties import profiles


@pytest.mark.parametrize("env,expected", [
    ({}, "dev"),
    ({"CI": "true"}, "ci"),
    ({"URLWB_HYPOTHESIS_PROFILE": "nightly"}, "nightly"),
    ({"CI": "1", "URLWB_HYPOTHESIS_PROFILE": "dev"}, "dev"),
])
def test_the_default_profile_follows_the_environment(monkeypatch, env, expected):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(profiles.ENV_VAR, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert profiles.default_profile() == expected


def test_an_unknown_profile_name_is_refused(monkeypatch):
    monkeypatch.setenv(profiles.ENV_VAR, "fast")
    with pytest.raises(ValueError, match="fast"):
        profiles.default_profile()


def test_ci_is_deterministic_without_deadline_or_database_and_nightly_runs_longest():
    ci, dev, nightly = (settings.get_profile(name) for name in ("ci", "dev", "nightly"))
    assert ci.derandomize and ci.database is None and ci.deadline is None
    assert dev.database is not None and nightly.database is not None
    assert nightly.max_examples > ci.max_examples > 0 and nightly.max_examples > dev.max_examples
    assert nightly.stateful_step_count > ci.stateful_step_count
