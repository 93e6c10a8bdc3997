"""Rules engines that re-run recorded hands: tiles are small ints inside, codes at the edges.

Four parts: ``engine/`` (the protocol, the walk and what every ruleset shares),
``rulesets/`` (one folder per ruleset family), ``sim/`` (bots playing through the same
engine) and ``archive/`` (replaying a whole data folder, locally or on Dask).
"""
