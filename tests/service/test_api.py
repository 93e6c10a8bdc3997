"""The API in-process: shapes, tokens, retries, a corrupt event, end, the stream, the docs."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import msgspec
import pytest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.schemas.records import RecordError, parse_object, parse_record
from mjaudit.parts.service.app import create_app
from mjaudit.parts.service.config import ServeConfig
from mjaudit.parts.service.openapi import SPEC
from starlette.testclient import TestClient

from tests.service.conftest import ADMIN, READ, REFEREE, WRITE, auth
from tests.service.play import header_of, play

T1 = auth(WRITE["t1"])


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    """Three hk-classic hands of one sitting, with violations."""
    return [r for r, _ in simulate("hk-classic", 1, seed=2, violations=0.5)][:3]


def opened(client: TestClient, record: dict[str, Any], headers: dict[str, str] = T1) -> str:
    r = client.post("/hands", json=header_of(record), headers=headers)
    assert r.status_code == 201, r.text
    return r.json()["hand"]


def ingest_message(record: dict[str, Any]) -> str:
    """What ingest says of a record (its RecordError, without the file and line)."""
    with pytest.raises(RecordError) as caught:
        parse_object(record)
    return str(caught.value)


# -- shapes -----------------------------------------------------------------------------


def test_a_header_missing_a_field_is_refused_naming_it(client: TestClient, records: list) -> None:
    head = header_of(records[0])
    del head["dealer"]
    r = client.post("/hands", json=head, headers=T1)
    assert r.status_code == 422
    assert r.json() == {
        "error": "MISSING_FIELD",
        "path": "$.dealer",
        "message": "$.dealer: required field is missing",
    }


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("ruleset", "mahjong-9000", "UNKNOWN_RULESET"),
        ("dealer", 7, "INVALID_VALUE"),
        ("players", "Ann", "WRONG_TYPE"),
    ],
)
def test_a_bad_header_gets_ingests_code_and_message(
    client: TestClient, records: list, field: str, value: Any, code: str
) -> None:
    head = {**header_of(records[0]), field: value}
    r = client.post("/hands", json=head, headers=T1)
    assert r.status_code == 422
    assert r.json()["error"] == code
    assert r.json()["message"] == ingest_message({**head, "events": []})


def test_a_header_with_events_or_a_result_is_refused(client: TestClient, records: list) -> None:
    for name in ("events", "result"):
        r = client.post("/hands", json={**header_of(records[0]), name: []}, headers=T1)
        assert r.status_code == 422
        assert r.json()["path"] == f"$.{name}"


def test_bad_json_gets_ingests_bad_json_message(client: TestClient) -> None:
    raw = b'{"format": "mjlog/1", '
    r = client.post("/hands", content=raw, headers={**T1, "content-type": "application/json"})
    assert r.status_code == 400
    with pytest.raises(RecordError) as caught:
        parse_record(raw)
    assert r.json()["error"] == "BAD_JSON"
    assert r.json()["message"] == str(caught.value)


def test_an_event_of_a_bad_shape_gets_ingests_message_with_its_index(
    client: TestClient, records: list
) -> None:
    rec = records[0]
    hand = opened(client, rec)
    for seq in range(3):
        assert (
            client.post(
                f"/hands/{hand}/events", json={"seq": seq, "event": rec["events"][seq]}, headers=T1
            ).status_code
            == 200
        )
    bad = {**rec["events"][3], "tile": "10z"}
    r = client.post(f"/hands/{hand}/events", json={"seq": 3, "event": bad}, headers=T1)
    assert r.status_code == 422
    whole = {**header_of(rec), "events": [*rec["events"][:3], bad]}
    assert r.json()["message"] == ingest_message(whole)
    assert r.json()["path"].startswith("$.events[3]")
    unknown = client.post(
        f"/hands/{hand}/events", json={"seq": 3, "event": {"type": "sneeze", "seat": 0}}, headers=T1
    )
    assert unknown.status_code == 422 and unknown.json()["error"] == "UNKNOWN_EVENT"
    assert client.get(f"/hands/{hand}", headers=T1).json()["next_seq"] == 3  # nothing taken


def test_limits_refuse_a_body_too_large(config: ServeConfig, records: list) -> None:
    small = dataclasses.replace(config, max_body=512)
    with TestClient(create_app(small)) as client:
        r = client.post("/hands", json=header_of(records[0]), headers=T1)
        assert r.status_code == 413 and r.json()["error"] == "BODY_TOO_LARGE"


# -- tokens -----------------------------------------------------------------------------


def test_tokens_none_read_only_other_table_and_admin(client: TestClient, records: list) -> None:
    head = header_of(records[0])
    assert client.post("/hands", json=head).status_code == 401
    assert client.post("/hands", json=head, headers=auth("not-a-token-of-ours")).status_code == 401
    assert client.post("/hands", json=head, headers=auth(READ["t1"])).status_code == 403
    assert client.post("/hands", json=head, headers=auth(REFEREE)).status_code == 403
    hand = opened(client, records[0])
    event = {"seq": 0, "event": records[0]["events"][0]}
    assert client.post(f"/hands/{hand}/events", json=event).status_code == 401
    for token in (READ["t1"], REFEREE, WRITE["t2"], ADMIN):
        assert (
            client.post(f"/hands/{hand}/events", json=event, headers=auth(token)).status_code == 403
        )
    for token in (READ["t1"], REFEREE, WRITE["t1"], ADMIN):
        assert client.get(f"/hands/{hand}", headers=auth(token)).status_code == 200
    assert client.get(f"/hands/{hand}", headers=auth(WRITE["t2"])).status_code == 403
    assert client.get(f"/hands/{hand}").status_code == 401
    assert client.get("/hands/0000000000000000", headers=T1).status_code == 404


def test_the_admin_issues_a_tables_tokens(client: TestClient, records: list) -> None:
    assert client.post("/admin/tables", json={"table": "t9"}, headers=T1).status_code == 403
    r = client.post("/admin/tables", json={"table": "t9"}, headers=auth(ADMIN))
    assert r.status_code == 201
    issued = r.json()
    hand = opened(client, records[0], auth(issued["write"]))
    assert client.get(f"/hands/{hand}", headers=auth(issued["read"])).json()["table"] == "t9"
    assert client.get(f"/hands/{hand}", headers=auth(READ["t1"])).status_code == 403
    bad = client.post("/admin/tables", json={"table": "../etc"}, headers=auth(ADMIN))
    assert bad.status_code == 422


def test_issued_tokens_survive_a_restart(config: ServeConfig, records: list) -> None:
    with TestClient(create_app(config)) as client:
        issued = client.post("/admin/tables", json={"table": "t9"}, headers=auth(ADMIN)).json()
    with TestClient(create_app(config)) as client:
        opened(client, records[0], auth(issued["write"]))


# -- sequence numbers -------------------------------------------------------------------


def test_a_retried_post_gets_the_same_answer_and_is_taken_once(
    client: TestClient, records: list
) -> None:
    rec = records[0]
    hand = opened(client, rec)
    assert client.post("/hands", json=header_of(rec), headers=T1).status_code == 200  # retry
    answers = []
    for seq, ev in enumerate(rec["events"]):
        first = client.post(f"/hands/{hand}/events", json={"seq": seq, "event": ev}, headers=T1)
        again = client.post(f"/hands/{hand}/events", json={"seq": seq, "event": ev}, headers=T1)
        assert first.status_code == again.status_code == 200
        a, b = first.json(), again.json()
        assert (a["replayed"], b["replayed"]) == (False, True)
        assert {**a, "replayed": True} == b
        answers.append(a)
    assert any(a["findings"] for a in answers)
    view = client.get(f"/hands/{hand}", headers=T1).json()
    assert view["next_seq"] == len(rec["events"])
    other = {**rec["events"][0], "seat": (rec["events"][0]["seat"] + 1) % 4}
    r = client.post(f"/hands/{hand}/events", json={"seq": 0, "event": other}, headers=T1)
    assert r.status_code == 409 and r.json()["error"] == "SEQ_CONFLICT"
    gap = client.post(
        f"/hands/{hand}/events", json={"seq": len(rec["events"]) + 5, "event": other}, headers=T1
    )
    assert gap.status_code == 409 and gap.json()["next_seq"] == len(rec["events"])


def test_a_conflicting_header_for_an_open_hand_is_refused(
    client: TestClient, records: list
) -> None:
    opened(client, records[0])
    r = client.post("/hands", json={**header_of(records[0]), "dealer": 3}, headers=T1)
    assert r.status_code == 409 and r.json()["error"] == "HAND_CONFLICT"


# -- an impossible event ----------------------------------------------------------------


def _not_held(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The first discard of the record, changed to a tile its player does not hold."""
    for i, ev in enumerate(record["events"]):
        if ev["type"] == "discard":
            hand = record["start_hands"][ev["seat"]]
            missing = next(
                t
                for t in ("1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P")
                if t not in hand
            )
            drawn = [e.get("tile") for e in record["events"][:i] if e.get("seat") == ev["seat"]]
            if missing not in drawn:
                return i, {**ev, "tile": missing}
    raise AssertionError("no discard to break")


def test_an_impossible_event_gets_corrupt_log_and_closes_the_hand(
    client: TestClient, records: list
) -> None:
    rec = copy.deepcopy(records[0])
    at, bad = _not_held(rec)
    hand = opened(client, rec)
    for seq in range(at):
        assert (
            client.post(
                f"/hands/{hand}/events", json={"seq": seq, "event": rec["events"][seq]}, headers=T1
            ).status_code
            == 200
        )
    after = rec["events"][at + 1]
    r = client.post(f"/hands/{hand}/events", json={"seq": at, "events": [bad, after]}, headers=T1)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["accepted"] == 1 and "refused" in answer
    assert answer["closed"]["class"] == "CORRUPT_LOG"
    # the engine's own verdict on the same record
    broken = {**header_of(rec), "events": [*rec["events"][:at], bad]}
    engine = [f.to_json() for f in replay_hand(broken).findings if f.cls.value == "CORRUPT_LOG"]
    assert {k: answer["closed"][k] for k in engine[0]} == engine[0]
    more = client.post(f"/hands/{hand}/events", json={"seq": at + 1, "event": after}, headers=T1)
    assert more.status_code == 409 and more.json()["error"] == "HAND_CLOSED"
    assert client.get(f"/hands/{hand}", headers=T1).json()["status"] == "closed"
    ended = client.post(f"/hands/{hand}/end", json={}, headers=T1).json()
    assert ended["ended_by"] == "corrupt" and ended["archive"]["status"] == "stored"


# -- end --------------------------------------------------------------------------------


def test_end_commits_once_however_often_asked(
    client: TestClient, config: ServeConfig, records: list
) -> None:
    rec = records[0]
    got = play(client, WRITE["t1"], rec)
    hand = got["hand"]
    again = client.post(f"/hands/{hand}/end", json={"result": rec.get("result")}, headers=T1)
    assert again.status_code == 200 and again.json() == got["end"]
    other = client.post(f"/hands/{hand}/end", json={"result": {"winners": []}}, headers=T1)
    assert other.status_code == 409 and other.json()["error"] == "END_CONFLICT"
    assert client.post(
        f"/hands/{hand}/events", json={"seq": 0, "event": rec["events"][0]}, headers=T1
    ).json()["replayed"]
    # the same hand posted again from the start: ingest recognises it as present
    replay = play(client, WRITE["t1"], rec)
    assert replay["end"]["archive"]["batch"]["skipped_present"] == 1
    keys = DataDir(config.data).scan("hands").select("game_id", "hand_no").collect().rows()
    assert keys == [(rec["game_id"], rec["hand_no"])]


def test_a_hand_replayed_with_other_content_goes_to_the_quarantine(
    client: TestClient, config: ServeConfig, records: list
) -> None:
    rec = records[0]
    play(client, WRITE["t1"], rec)
    changed = {**rec, "events": [*rec["events"][:-1], {"type": "abandon", "reason": "power cut"}]}
    changed.pop("result", None)
    got = play(client, WRITE["t1"], changed)
    assert got["end"]["archive"]["status"] == "quarantined"
    assert (
        "DUPLICATE" in got["end"]["archive"]["message"]
        or "already ingested" in got["end"]["archive"]["message"]
    )
    data = DataDir(config.data)
    assert data.scan("hands").collect().height == 1
    assert data.scan("quarantine").select("code").collect()["code"].to_list() == [
        "DUPLICATE_KEY_CONFLICT"
    ]


def test_a_bad_recorded_result_is_refused_and_the_hand_stays_open(
    client: TestClient, records: list
) -> None:
    rec = records[0]
    hand = opened(client, rec)
    r = client.post(f"/hands/{hand}/end", json={"result": {"winners": "everyone"}}, headers=T1)
    assert r.status_code == 422 and r.json()["path"].startswith("$.result")
    assert client.get(f"/hands/{hand}", headers=T1).json()["status"] == "open"


# -- stream, view, docs -----------------------------------------------------------------


def test_the_stream_delivers_a_tables_findings(client: TestClient, records: list) -> None:
    rec = records[0]
    with client.websocket_connect(f"/tables/t1/stream?token={READ['t1']}") as ws:
        assert ws.receive_json() == {"type": "hello", "table": "t1"}
        got = play(client, WRITE["t1"], rec)
        flagged = [f for f in got["raised"]]
        assert flagged, "the hand should raise findings"
        seen: list[dict[str, Any]] = []
        while len(seen) < len(flagged):
            message = msgspec.json.decode(ws.receive_bytes())
            assert message["hand"] == got["hand"]
            seen.extend(message["findings"])
        assert seen == flagged


def test_the_stream_refuses_a_token_of_another_table(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as caught,
        client.websocket_connect(f"/tables/t1/stream?token={WRITE['t2']}"),
    ):
        pass
    assert caught.value.code == 4403


def test_the_view_is_the_dashboards_model(client: TestClient, records: list) -> None:
    rec = records[0]
    hand = opened(client, rec)
    client.post(f"/hands/{hand}/events", json={"seq": 0, "events": rec["events"][:10]}, headers=T1)
    view = client.get(f"/hands/{hand}", headers=auth(REFEREE)).json()
    from mjaudit.parts.dashboards.table_view import table_view

    built = table_view({**header_of(rec), "events": rec["events"][:10]}, 9)
    model = msgspec.json.decode(msgspec.json.encode(built))
    model.pop("findings")
    assert view["view"] == model
    listed = client.get("/tables/t1/hands", headers=auth(READ["t1"])).json()["hands"]
    assert [h["hand"] for h in listed] == [hand]


def test_the_openapi_description_lists_every_route(client: TestClient) -> None:
    paths = {route.path for route in client.app.routes}  # type: ignore[attr-defined]
    assert paths == set(SPEC["paths"])
    assert client.get("/openapi.json").json() == SPEC
    page = client.get("/docs").text
    assert all(p in page for p in SPEC["paths"])


def test_a_hand_ended_but_not_committed_is_committed_at_restart(
    config: ServeConfig, records: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjaudit.parts.service import archive

    real = archive.commit

    def disk_full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    rec = records[0]
    monkeypatch.setattr(archive, "commit", disk_full)
    with TestClient(create_app(config)) as client:
        hand = opened(client, rec)
        client.post(
            f"/hands/{hand}/events", json={"seq": 0, "events": rec["events"][:50]}, headers=T1
        )
        client.post(
            f"/hands/{hand}/events", json={"seq": 50, "events": rec["events"][50:]}, headers=T1
        )
        r = client.post(f"/hands/{hand}/end", json={"result": rec.get("result")}, headers=T1)
        assert r.status_code == 503 and r.json()["error"] == "ARCHIVE_UNAVAILABLE"
    monkeypatch.setattr(archive, "commit", real)
    with TestClient(create_app(config)) as client:
        view = client.get(f"/hands/{hand}", headers=T1).json()
        assert view["status"] == "ended"
        assert view["settlement"]["archive"]["status"] == "stored"
    keys = DataDir(config.data).scan("hands").select("game_id", "hand_no").collect().rows()
    assert keys == [(rec["game_id"], rec["hand_no"])]
    assert config.journal.read_bytes() == b""  # trimmed: nothing left open
