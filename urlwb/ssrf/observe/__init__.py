"""SSRF observed, not modelled: real HTTP clients fetch each input inside a network namespace the
run makes for itself, and listeners there say where each one connected (docs/ssrf.md).

- :mod:`.listen`: the listener process (makes the namespace, carries the addresses, records
  every connection, answers ``302 Location: INPUT`` on the redirector);
- :mod:`.network`: starts it and reads what it saw, mark by mark;
- :mod:`.clients`: the HTTP clients (``clients/client-*/oracles.toml``, kind ``client``), each a
  long-lived child inside a namespace, and their line protocol;
- :mod:`.observe`: every input through every client, straight and after a redirect;
- :mod:`.model`: the resolver model's address for each (input, client), against the observed one;
- :mod:`.findings`: ssrf hazards with what the client was seen to reach, client crashes and hangs,
  ``observed.jsonl``;
- :mod:`.report`: the report's section; :mod:`.run`: ``urlwb ssrf --inputs`` and the observation of
  what a hunt flagged.
"""
