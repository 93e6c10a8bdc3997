"""An independent brute force over the (pair, chows, pungs) splits of a tile count vector,
for the vn-160 property and review tests (it shares nothing with the engine's
decomposition tables, and allows any number of copies of a kind: khung)."""

from __future__ import annotations

Split = tuple[int, tuple[int, ...], tuple[int, ...]]


def brute_splits(counts: list[int]) -> set[Split]:
    """Every (pair, chows, pungs) split of a count vector, by plain recursion on the lowest
    kind (``counts`` is not changed)."""
    c = list(counts)
    out: set[Split] = set()

    def walk(pair: int, chows: tuple[int, ...], pungs: tuple[int, ...]) -> None:
        i = next((k for k in range(34) if c[k]), -1)
        if i < 0:
            if pair >= 0:
                out.add((pair, tuple(sorted(chows)), tuple(sorted(pungs))))
            return
        if c[i] >= 3:
            c[i] -= 3
            walk(pair, chows, (*pungs, i))
            c[i] += 3
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            walk(i, chows, pungs)
            c[i] += 2
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for d in range(3):
                c[i + d] -= 1
            walk(pair, (*chows, i), pungs)
            for d in range(3):
                c[i + d] += 1

    walk(-1, (), ())
    return out
