"""url-workbench: campaigns, triage, minimization, differentials and reports over ``engine``."""
