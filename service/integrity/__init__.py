"""The audit trail: records' hashes and chain, the store's ledger, signed checkpoints, the verifier, and the
verified export and import between stores."""
