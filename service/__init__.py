"""``mjaudit serve``: the live audit service, a hand audited event by event as it is played.

One concept per module: :mod:`.shapes` validates what a table posts (ingest's parser and
messages), :mod:`.session` is one open hand and its findings (the engine's replay of the
record so far), :mod:`.stepper` its live engine state that each post steps, :mod:`.journal` makes every accepted event durable before it is answered,
:mod:`.archive` commits finished hands through ingest, :mod:`.auth` holds the tokens,
:mod:`.stream` fans findings out to referee screens, :mod:`.service` ties them together
and :mod:`.app` is the HTTP API (Starlette, run by uvicorn).
"""
