"""Registers the Hypothesis profiles (properties/profiles.py) and loads the default one.

pytest loads this file before its plugins are configured, so ``--hypothesis-profile NAME``
(handled by Hypothesis's own pytest plugin) still overrides the default chosen here from
``URLWB_HYPOTHESIS_PROFILE`` or ``CI``.
"""

from hypothesis import settings

from properties.profiles import default_profile, register_profiles

register_profiles()
settings.load_profile(default_profile())
