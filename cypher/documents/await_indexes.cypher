// Waits (bounded, in seconds) until every index is online, so chunks committed just before are
// answerable by the chunk_text full-text index even right after a migration created it.
CALL db.awaitIndexes(toInteger($timeout_seconds))
