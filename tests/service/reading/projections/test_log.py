"""The projection's own reading of the log gives what the library's path gives, or hands the record to it."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest

from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.projections.log import LibraryLog, PlainLog, log_for
from tests.service.reading.projections.test_follower import snapshot


def _all_rows(log: LibraryLog) -> list[Any]:
    rows: list[Any] = []
    while batch := log.select(log.last_id(rows) if rows else 0, 100):
        rows.extend(batch)
    return rows


def test_every_record_decodes_as_the_library_decodes_it_less_the_timestamp(service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=3, games=2, seed="plain")
    follower = Follower(service.settings)
    try:
        assert isinstance(follower.log, PlainLog)
        library = LibraryLog(follower.app)
        plain_rows, library_rows = _all_rows(follower.log), _all_rows(library)
        assert [r[0] for r in plain_rows] == [n.id for n in library_rows]
        assert len(plain_rows) == follower.app.recorder.max_notification_id()
        for row, notification in zip(plain_rows, library_rows, strict=True):
            plain, expected = follower.log.decode(row), library.decode(notification)
            assert type(plain) is type(expected)
            wanted = dict(vars(expected))
            assert isinstance(wanted.pop("timestamp"), datetime)
            decoded = dict(vars(plain))
            if getattr(type(expected), "class_version", 1) > 1:  # (may need upcasting: the mapper's object, whole)
                assert isinstance(decoded.pop("timestamp"), datetime)
            else:
                with pytest.raises(AttributeError):
                    _ = plain.timestamp  # left out, so that nobody reads it by mistake
            assert decoded == wanted
    finally:
        follower.close()


def test_read_models_are_the_same_through_either_path(service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=4, games=2, seed="paths")
    follower = Follower(service.settings, batch_size=77)
    try:
        follower.catch_up()
        plain = snapshot(follower)
        follower.log = LibraryLog(follower.app)
        follower.rebuild()
        assert snapshot(follower) == plain
    finally:
        follower.close()


def test_a_record_with_another_transcoded_value_goes_through_the_library(service: Digsite) -> None:
    service.create_player("Ana", kind="bot", bot={"style": 1})
    follower = Follower(service.settings)
    try:
        log = follower.log
        assert isinstance(log, PlainLog)
        (row,) = log.select(0, 10)
        state = json.loads(bytes(row[4]))
        state["bot"] = {"since": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}}
        event = log.decode((*row[:4], json.dumps(state).encode()))
        assert event.bot == {"since": datetime.fromisoformat("2026-01-02T03:04:05+00:00")}
        assert isinstance(event.timestamp, datetime)  # the mapper's object, whole
    finally:
        follower.close()


def test_a_store_with_a_cipher_or_compression_is_read_through_the_library(service: Digsite) -> None:
    follower = Follower(service.settings)
    try:
        assert isinstance(log_for(follower.app), PlainLog)
        follower.app.mapper.compressor = object()  # type: ignore[assignment]
        assert type(log_for(follower.app)) is LibraryLog
        follower.app.mapper.compressor = None
        follower.app.mapper.cipher = object()  # type: ignore[assignment]
        assert type(log_for(follower.app)) is LibraryLog
        follower.app.mapper.cipher = None
    finally:
        follower.close()


def test_a_record_that_is_not_one_json_object_is_left_to_the_library_to_refuse(service: Digsite) -> None:
    from eventsourcing.persistence import MapperDeserialisationError

    service.create_player("Ana")
    follower = Follower(service.settings)
    try:
        (row,) = follower.log.select(0, 10)
        with pytest.raises(MapperDeserialisationError):
            follower.log.decode((*row[:4], bytes(row[4]) + b" trailing"))
    finally:
        follower.close()
