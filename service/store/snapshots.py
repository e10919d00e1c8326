"""Snapshots the service can trust: sealed with the server's secret and tied to the record they were taken at.

A snapshot is a cache: the state of a game at some version, so that loading the game need not fold every
record since the first. The records are what the audit proves; a snapshot is never more than a shortcut to
what they give. An attacker with write access to the database could edit a snapshot (swap cards between
hands, replace a seat's token hash) and the service would serve, and let a forged token play, what the
snapshot says. So:

- every snapshot is stored **sealed**: ``digsite-sealed/1 <mac>`` and a newline before the library's own
  bytes, where the MAC is an HMAC-SHA256, keyed by a key derived from the server secret
  (``Settings.server_secret()``, never in the database), over the game id, the version, the topic and those
  bytes. The snapshot's state holds ``last_hash``, the hash of the record it was taken at;
- on load (``VerifyingRepository``) a snapshot is used only if its seal holds **and** the stored record at
  its version has that hash (read in the same query as the records after it). Otherwise the service logs a
  warning and folds the records from the first; it never fails a read for a bad snapshot.

``service.integrity.audit`` checks every stored snapshot against the records independently of the seal (an auditor
need not hold the server secret): see ``audit.check_snapshots``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable
from itertools import chain
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Repository
from eventsourcing.persistence import Mapper, StoredEvent

log = logging.getLogger("digsite.snapshots")

SEAL_PREFIX = b"digsite-sealed/1 "
_MAC_HEX = 64


class SnapshotRejected(Exception):
    """A stored snapshot whose seal does not hold (edited, or sealed with another secret, or not sealed)."""


def snapshot_key(server_secret: bytes) -> bytes:
    """The key snapshots are sealed with: derived from the server secret, so that it seals nothing else."""
    return hmac.new(server_secret, b"digsite snapshot seal/1", hashlib.sha256).digest()


def _mac(key: bytes, originator_id: UUID | str, version: int, topic: str, payload: bytes) -> str:
    header = f"{UUID(str(originator_id))}\n{version}\n{topic}\n".encode()
    return hmac.new(key, header + payload, hashlib.sha256).hexdigest()


def seal(key: bytes, stored: StoredEvent) -> StoredEvent:
    mac = _mac(key, stored.originator_id, stored.originator_version, stored.topic, stored.state)
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=SEAL_PREFIX + mac.encode() + b"\n" + stored.state,
    )


def split(state: bytes) -> tuple[str | None, bytes]:
    """(the MAC, the library's bytes) of a stored snapshot; (None, state) if it is not sealed at all."""
    state = bytes(state)
    start = len(SEAL_PREFIX)
    if not state.startswith(SEAL_PREFIX) or state[start + _MAC_HEX : start + _MAC_HEX + 1] != b"\n":
        return None, state
    return state[start : start + _MAC_HEX].decode("ascii", "replace"), state[start + _MAC_HEX + 1 :]


def seal_holds(key: bytes, stored: StoredEvent) -> bool:
    mac, payload = split(stored.state)
    if mac is None:
        return False
    expected = _mac(key, stored.originator_id, stored.originator_version, stored.topic, payload)
    return hmac.compare_digest(mac, expected)


def unseal(key: bytes, stored: StoredEvent) -> StoredEvent:
    """The stored snapshot as the library wrote it, if its seal holds; raises SnapshotRejected otherwise."""
    mac, payload = split(stored.state)
    if mac is None:
        raise SnapshotRejected("it is not sealed")
    if not seal_holds(key, stored):
        raise SnapshotRejected("its seal does not hold (edited, or sealed with another server secret)")
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=payload,
    )


class SealingMapper(Mapper[UUID]):
    """The snapshot store's mapper: seals what it writes, and opens only what holds its seal."""

    def __init__(self, base: Mapper[UUID], server_secret: Callable[[], bytes]) -> None:
        super().__init__(base.transcoder, base.compressor, base.cipher)
        self._server_secret = server_secret
        self._key: bytes | None = None

    @property
    def key(self) -> bytes:
        if self._key is None:  # read (or made) on first use only: most commands never touch a snapshot
            self._key = snapshot_key(self._server_secret())
        return self._key

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return seal(self.key, super().to_stored_event(domain_event))

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return super().to_domain_event(unseal(self.key, stored_event))

    def open_unchecked(self, stored_event: StoredEvent) -> Any:
        """Decode a stored snapshot without checking its seal (the audit compares it with the records)."""
        _, payload = split(stored_event.state)
        return super().to_domain_event(
            StoredEvent(stored_event.originator_id, stored_event.originator_version, stored_event.topic, payload)
        )


class VerifyingRepository(Repository[UUID]):
    """The library's repository, except that a snapshot is used only when it is sealed by this server and the
    stored record at its version has the hash the snapshot was taken at; else the records are folded from the
    first (and a warning logged)."""

    def _reconstruct_aggregate(self, aggregate_id: UUID, version: int | None, projector_func: Any) -> Any:
        snapshot = self._snapshot(aggregate_id, version)
        if snapshot is not None:
            at = snapshot.originator_version
            # The record at the snapshot's version comes with the records after it: one query, as before.
            events = list(self.event_store.get(originator_id=aggregate_id, gt=at - 1, lte=version))
            first = events[0] if events else None
            if (
                first is not None
                and first.originator_version == at
                and isinstance(snapshot.state, dict)
                and getattr(first, "hash", None) == snapshot.state.get("last_hash")
            ):
                aggregate = projector_func(None, chain([snapshot], events[1:]))
                if aggregate is None:  # pragma: no cover - a snapshot always makes an aggregate
                    raise AggregateNotFoundError(f"Aggregate {aggregate_id!r} version {version!r} not found.")
                return aggregate
            log.warning(
                "ignoring the snapshot of %s at version %s: the stored record at that version is not the one it was "
                "taken at; folding the records from the first",
                aggregate_id,
                at,
            )
        aggregate = projector_func(None, self.event_store.get(originator_id=aggregate_id, lte=version))
        if aggregate is None:
            raise AggregateNotFoundError(f"Aggregate {aggregate_id!r} version {version!r} not found.")
        return aggregate

    def _snapshot(self, aggregate_id: UUID, version: int | None) -> Any:
        if self.snapshot_store is None:
            return None
        stored = self.snapshot_store.recorder.select_events(aggregate_id, desc=True, limit=1, lte=version)
        if not stored:
            return None
        mapper = cast(SealingMapper, self.snapshot_store.mapper)
        try:
            return mapper.to_domain_event(stored[0])
        except SnapshotRejected as reason:
            log.warning(
                "ignoring the snapshot of %s at version %s: %s; folding the records from the first",
                aggregate_id,
                stored[0].originator_version,
                reason,
            )
        except Exception as error:  # undecodable behind a good seal: still only a cache
            log.warning(
                "ignoring the snapshot of %s at version %s: %s", aggregate_id, stored[0].originator_version, error
            )
        return None
