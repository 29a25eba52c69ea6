// The API key whose public lookup token matches; the caller compares the secret hash in constant time.
MATCH (k:ApiKey {lookup: $lookup})
RETURN k.id AS id, k.secret_hash AS secret_hash, k.scopes AS scopes, k.organization_id AS organization_id,
       k.project_id AS project_id, k.revoked_at IS NOT NULL AS revoked, k.name AS name
