"""Playing a hand record through the API, the way a table would: header, events, end."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import auth

HEADER_ONLY = ("events", "result")


def header_of(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in HEADER_ONLY}


def play(client: Any, token: str, record: dict[str, Any], batch: int = 1) -> dict[str, Any]:
    """Post ``record`` event by event (``batch`` at a time) and end it; returns every
    finding the API raised, in order, the state summary each post answered with (with the
    number of events it closed) and the end's answer."""
    opened = client.post("/hands", json=header_of(record), headers=auth(token))
    assert opened.status_code == 201, opened.text
    hand = opened.json()["hand"]
    raised: list[dict[str, Any]] = []
    states: list[tuple[int, dict[str, Any]]] = []
    events = record["events"]
    for seq in range(0, len(events), batch):
        answer = client.post(
            f"/hands/{hand}/events",
            json={"seq": seq, "events": events[seq : seq + batch]},
            headers=auth(token),
        )
        assert answer.status_code == 200, answer.text
        raised.extend(answer.json()["findings"])
        states.append((answer.json()["next_seq"], answer.json()["state"]))
    ended = client.post(
        f"/hands/{hand}/end", json={"result": record.get("result")}, headers=auth(token)
    )
    assert ended.status_code == 200, ended.text
    return {"hand": hand, "raised": raised, "states": states, "end": ended.json()}


def engine_fields(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fields ``check --format json`` gives a finding (the API adds player and rules)."""
    keys = ("event_index", "seat", "code", "reason", "class", "message")
    return [{k: f[k] for k in keys} for f in findings]
