"""The engine: what every ruleset shares.

The protocol (``ruleset.py``: one :class:`Ruleset` per ruleset id, ``registry.py`` listing
them), the one replay loop (``loop.py``: what every ruleset's replay does, given the
ruleset's pieces) around one walk over a hand (``stepping.py``), the findings machinery
(``findings.py``), the checks written once (``rotation.py``, ``recorded.py``,
``turns.py``), options (``options.py``), the text of a report (``render.py``), the scorer
contract of ``mjaudit score`` (``scorecard.py``, ``notation.py``), and ``run.py``, which replays a hand through
its ruleset and never lets one hand stop the others.
"""
