"""Signed checkpoints of the ledger: what pins the store against someone who can write to its database.

``digsite checkpoint --key FILE`` reads the ledger (``service.integrity.ledger``), refuses if its chain does not hold or
an entry does not name a stored record, and writes a checkpoint: a **statement** ``{format, ledger_size,
head, issued_at, public_key, key_id}`` signed with Ed25519, and the ledger's entries 1..``ledger_size``
(whose chain must end at ``head``). Organisers publish it or hand it to players; the store keeps a copy of
each statement it issued (public, so the copy proves nothing by itself: its signature does).

``digsite verify --all --checkpoint FILE [--public-key FILE]`` then proves that every game the checkpoint
covers is present, whole, unaltered and ends where it ended, and that the store's ledger up to the
checkpoint is the one signed. The private key lives outside the store (``digsite checkpoint keygen``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from service.integrity.ledger import Entry, Ledger, check_chain, now
from service.integrity.records import canonical
from service.integrity.tournament_chain import chained_hashes, tournament_records

if TYPE_CHECKING:
    from service.commands.application import Digsite

FORMAT = "digsite-checkpoint/1"
KEY_ENV = "DIGSITE_CHECKPOINT_KEY"  # the private key file, for `digsite checkpoint`
PUBLIC_KEY_ENV = "DIGSITE_CHECKPOINT_PUBLIC_KEY"  # the organisers' public key file, for verify and coverage
STATEMENT_FIELDS = frozenset({"format", "ledger_size", "head", "issued_at", "public_key", "key_id"})


class CheckpointError(Exception):
    """A checkpoint that cannot be issued, read or trusted (the message says why)."""


# -- keys -----------------------------------------------------------------------------------------------------


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """A short name for a public key: the first 16 bytes of the SHA-256 of its raw bytes, in hex."""
    return hashlib.sha256(raw_public(key)).hexdigest()[:32]


def keygen(private_path: Path) -> tuple[Path, str]:
    """Write a new key pair: the private key (PEM, readable by its owner only; never overwritten) at
    ``private_path`` and the public key beside it (``.pub``). Returns the public key's path and key id."""
    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public_path = private_path.with_name(private_path.name + ".pub")
    private_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CheckpointError(f"{private_path} exists: a key is never overwritten") from None
    with os.fdopen(fd, "wb") as out:
        out.write(private_pem)
    public_path.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return public_path, key_id(key.public_key())


def load_private_key(path: str | Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise CheckpointError(f"cannot read the private key {path}: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointError(f"{path} is not an Ed25519 private key")
    return key


def load_public_key(path: str | Path) -> Ed25519PublicKey:
    """A public key file: PEM (as keygen writes it), or the raw key as 64 hex digits."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CheckpointError(f"cannot read the public key {path}: {error}") from None
    try:
        text = data.decode("ascii").strip()
        if len(text) == 64:
            return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnicodeDecodeError, TypeError) as error:
        raise CheckpointError(f"{path} is not a public key ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointError(f"{path} is not an Ed25519 public key")
    return key


def trusted_key_from_env() -> Ed25519PublicKey | None:
    path = os.environ.get(PUBLIC_KEY_ENV)
    return load_public_key(path) if path else None


# -- the checkpoint -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    statement: dict[str, Any]
    signature: str
    entries: list[Entry]

    @property
    def ledger_size(self) -> int:
        return int(self.statement["ledger_size"])

    @property
    def head(self) -> str:
        return str(self.statement["head"])

    @property
    def key_id(self) -> str:
        return str(self.statement["key_id"])

    @property
    def issued_at(self) -> str:
        return str(self.statement["issued_at"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "statement": dict(self.statement),
            "signature": self.signature,
            "entries": [e.to_dict() for e in self.entries],
        }

    def entries_of(self, game_id: str) -> list[Entry]:
        return [e for e in self.entries if e.game == game_id]


def issue(service: Digsite, key: Ed25519PrivateKey) -> Checkpoint:
    """Sign the store's ledger as it is now, keep a copy of the statement in the store, and return the checkpoint.

    Refuses (CheckpointError) if the ledger's chain does not hold or some entry does not name the stored
    record it was made for: a checkpoint must never vouch for a ledger already tampered with."""
    ledger = Ledger(service)
    entries = ledger.entries()
    chain = check_chain(entries)
    if not chain.ok:
        raise CheckpointError(f"the ledger does not hold, so it is not signed: {chain.detail}")
    chains: dict[str, list[str]] = {}  # each tournament's hashes as its chain gives them (older records store none)
    for entry in entries:
        if entry.kind == "tournament":
            if entry.game not in chains:
                chains[entry.game] = chained_hashes(entry.game, tournament_records(service, entry.game))
            hashes = chains[entry.game]
            found = hashes[entry.version - 1] if 1 <= entry.version <= len(hashes) else None
        else:
            stored = service.app.recorder.select_events(UUID(entry.game), gt=entry.version - 1, lte=entry.version)
            found = json.loads(bytes(stored[0].state)).get("hash") if stored else None
        if found != entry.record_hash:
            what = "is missing" if found is None else "does not have the hash the ledger entered"
            raise CheckpointError(
                f"ledger entry {entry.seq}: record {entry.version} of game {entry.game} {what}: run "
                "`digsite verify --all`; nothing was signed"
            )
    public = key.public_key()
    statement: dict[str, Any] = {
        "format": FORMAT,
        "ledger_size": len(entries),
        "head": chain.head,
        "issued_at": now(),
        "public_key": raw_public(public).hex(),
        "key_id": key_id(public),
    }
    signature = key.sign(canonical(statement)).hex()
    ledger.keep_checkpoint(
        len(entries), chain.head, statement["key_id"], statement["issued_at"], canonical(statement).decode(), signature
    )
    return Checkpoint(statement, signature, entries)


def read(text: str | bytes) -> Checkpoint:
    """A checkpoint file's content; raises CheckpointError if it is not one (its signature is not checked here)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise CheckpointError(f"the checkpoint is not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"not a Digsite checkpoint (format {FORMAT})")
    statement, signature, entries = data.get("statement"), data.get("signature"), data.get("entries")
    if not isinstance(statement, dict) or set(statement) != STATEMENT_FIELDS or statement.get("format") != FORMAT:
        raise CheckpointError(
            "the checkpoint's statement does not hold exactly the fields " + ", ".join(sorted(STATEMENT_FIELDS))
        )
    size = statement["ledger_size"]
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise CheckpointError("the checkpoint's ledger size is not a count")
    if not all(isinstance(statement[f], str) for f in STATEMENT_FIELDS - {"ledger_size"}):
        raise CheckpointError("the checkpoint's statement holds a field of the wrong type")
    if not isinstance(signature, str) or not isinstance(entries, list):
        raise CheckpointError("the checkpoint has no signature or no entries")
    try:
        parsed = [Entry.from_dict(e) for e in entries]
    except ValueError as error:
        raise CheckpointError(f"the checkpoint's entries are malformed: {error}") from None
    return Checkpoint(statement, signature, parsed)


def load(path: str | Path) -> Checkpoint:
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise CheckpointError(f"cannot read the checkpoint {path}: {error}") from None
    return read(text)


def check_signature(statement: dict[str, Any], signature: str, trusted: Ed25519PublicKey | None) -> str:
    """Check the statement's signature; returns whose key vouched for it. With ``trusted`` (the organisers'
    published key) the signature must be that key's; without, only the key inside the statement is checked,
    which proves the statement is whole but not who signed it. Raises CheckpointError when it does not hold."""
    try:
        embedded = Ed25519PublicKey.from_public_bytes(bytes.fromhex(str(statement["public_key"])))
        raw_signature = bytes.fromhex(signature)
    except (ValueError, KeyError):
        raise CheckpointError("the checkpoint's public key or signature is not hex of the right length") from None
    if key_id(embedded) != statement.get("key_id"):
        raise CheckpointError("the checkpoint's key id is not the id of the key it holds")
    key = trusted if trusted is not None else embedded
    if trusted is not None and raw_public(trusted) != raw_public(embedded):
        raise CheckpointError(
            f"the checkpoint was signed by key {statement.get('key_id')}, "
            f"not by the public key given ({key_id(trusted)})"
        )
    try:
        key.verify(raw_signature, canonical(statement))
    except InvalidSignature:
        raise CheckpointError("the checkpoint's signature does not hold: it was altered or forged") from None
    if trusted is not None:
        return f"the public key given (key {key_id(trusted)})"
    return (
        f"only the key inside the checkpoint (key {statement.get('key_id')}); give the organisers' published key "
        "with --public-key to prove who signed it"
    )


def check(checkpoint: Checkpoint, trusted: Ed25519PublicKey | None) -> str:
    """The signature, then the entries the file carries against the signed head. Returns whose key vouched."""
    vouched = check_signature(checkpoint.statement, checkpoint.signature, trusted)
    chain = check_chain(checkpoint.entries)
    if not chain.ok:
        raise CheckpointError(f"the checkpoint's own entries do not hold: {chain.detail}")
    if chain.entries != checkpoint.ledger_size or chain.head != checkpoint.head:
        raise CheckpointError(
            f"the checkpoint's entries ({chain.entries}, head {chain.head[:12]}...) are not the signed ledger "
            f"({checkpoint.ledger_size} entries, head {checkpoint.head[:12]}...)"
        )
    return vouched


def compare_ledger(checkpoint: Checkpoint, stored: Sequence[Entry]) -> tuple[bool, str, int | None]:
    """The store's ledger up to the checkpoint against the signed one: (ok, what was found, first entry that
    differs)."""
    for signed in checkpoint.entries:
        if signed.seq > len(stored):
            return (
                False,
                f"the store's ledger ends at entry {len(stored)}, but the checkpoint covers entries 1 to "
                f"{checkpoint.ledger_size}: entries were removed",
                signed.seq,
            )
        found = stored[signed.seq - 1]
        if found != signed:
            return (
                False,
                f"ledger entry {signed.seq} in the store is not the one signed (the checkpoint has {signed.kind} "
                f"game {signed.game} version {signed.version} hash {signed.record_hash[:12]}...; the store has "
                f"{found.kind} game {found.game} version {found.version} hash {found.record_hash[:12]}...)",
                signed.seq,
            )
    return (
        True,
        f"the store's ledger entries 1 to {checkpoint.ledger_size} are the ones signed "
        f"(head {checkpoint.head[:12]}...)",
        None,
    )


# -- the dashboard's question --------------------------------------------------------------------------------


def checkpoint_coverage(service: Digsite, game_id: str, trusted: Ed25519PublicKey | None = None) -> dict[str, Any]:
    """Which issued checkpoint (if any) covers this game, from the store's ledger and its copies of issued
    checkpoints. A copy counts only if its signature holds (against ``trusted``, else the configured
    ``DIGSITE_CHECKPOINT_PUBLIC_KEY``, else the key it holds). ``covered`` is ``"whole"`` when a checkpoint
    holds the game's end (every record is pinned), ``"created"`` when it holds only its creation (record 1 is
    pinned: the game was in play then), else None. This is what the store says; the proof is
    ``digsite verify --all --checkpoint FILE --public-key KEY`` on the published checkpoint."""
    game = str(UUID(str(game_id)))
    ledger = Ledger(service)
    entries = ledger.entries_of(game)
    created = next((e.seq for e in entries if e.kind == "created"), None)
    finished = next((e.seq for e in entries if e.kind == "finished"), None)
    if trusted is None:
        trusted = trusted_key_from_env()
    best: tuple[str, dict[str, Any]] | None = None
    refused = 0
    for copy in ledger.checkpoints():
        try:
            statement = json.loads(copy["statement"])
            vouched = check_signature(statement, copy["signature"], trusted)
        except (CheckpointError, ValueError):
            refused += 1
            continue
        size = int(statement["ledger_size"])
        scope = (
            "whole"
            if finished is not None and size >= finished
            else "created"
            if created is not None and size >= created
            else None
        )
        if scope is None or (best is not None and best[0] == "whole"):
            continue
        if best is None or scope == "whole":
            head_entry = ledger.entry(size)
            best = (
                scope,
                {
                    "ledger_size": size,
                    "head": statement["head"],
                    "issued_at": statement["issued_at"],
                    "key_id": statement["key_id"],
                    "signature_checked_with": vouched,
                    "ledger_agrees": head_entry is not None and head_entry.entry_hash == statement["head"],
                },
            )
    return {
        "game": game,
        "ledger": {"created": created, "finished": finished},
        "covered": best[0] if best else None,
        "checkpoint": best[1] if best else None,
        "refused_copies": refused,
        "prove_with": "digsite verify --all --checkpoint FILE --public-key KEY",
    }
