"""The campaign, ``make run``'s job: a bounded round of every other job, then one report.

Owns: ``urlwb campaign`` (:mod:`.run`: triage of leftovers, coverage before and after, fuzzing,
triage, the differential round) and its report (:mod:`.report`, from the round's
:class:`~urlwb.campaign.run.CampaignRecord`).

May import every other package of the workbench; nothing imports it (the top layer of the
import-linter contract in pyproject.toml).
"""
