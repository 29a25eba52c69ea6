// Claims an Idempotency-Key for a key id. MERGE on the unique scope_key serialises concurrent claims;
// an expired record (past 24 h) is taken over. The caller owns the record when token = $token.
MERGE (r:IdempotencyRecord {scope_key: $scope_key})
ON CREATE SET r.token = $token, r.fingerprint = $fingerprint, r.state = 'in_progress', r.key_id = $key_id,
              r.idempotency_key = $idempotency_key, r.created_at = datetime(), r.expires_at = datetime() + duration('PT24H')
FOREACH (_ IN CASE WHEN r.expires_at < datetime() THEN [1] ELSE [] END |
  SET r.token = $token, r.fingerprint = $fingerprint, r.state = 'in_progress', r.status = null,
      r.response_json = null, r.created_at = datetime(), r.expires_at = datetime() + duration('PT24H'))
RETURN r.token AS token, r.fingerprint AS fingerprint, r.state AS state, r.status AS status, r.response_json AS response_json
