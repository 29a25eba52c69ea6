// Revokes a key; effective on the next request since keys are not cached.
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, datetime())
RETURN k.id AS id, k.revoked_at AS revoked_at
