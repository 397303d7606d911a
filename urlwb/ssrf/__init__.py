"""SSRF: validators (allow-list and private-address checks) as oracles, and the hunt for inputs a
validator allows where a fetcher would connect to a denied destination (``urlwb ssrf``).

Owns: the validator protocol's answers and the validators' supervision (:mod:`.validator`, over
``urlwb.oracles.supervisor``), the resolvers' readings of numeric hosts (:mod:`.resolvers`, no
network, no DNS), which resolver each fetcher uses (:mod:`.fetchers`), the deny and allow policy
(:mod:`.policy`), the inputs (:mod:`.inputs`), the hunt and its minimizer (:mod:`.hunt`), the
report (:mod:`.report`), the regress entries (:mod:`.regress`), installing a validator at another
release (:mod:`.install`), the shipped validators' folders (``validators/<folder>/oracles.toml``,
built by ``make oracles``), and the observation of real HTTP clients in a network namespace the
run makes (:mod:`.observe`, with the clients' folders ``observe/clients/<folder>/oracles.toml``).

May import: ``engine``, ``properties`` and the rest of ``urlwb`` (``urlwb.oracles``,
``urlwb.differential.generate``, ``urlwb.corpus_store``, ``urlwb.htmlpage``, ``urlwb.cliutil``,
``urlwb.errors``); nothing of ``urlwb`` imports this package except ``urlwb.cli`` (by name).
"""
