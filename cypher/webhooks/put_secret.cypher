// Seals a new signing secret for an endpoint. The secret signing until now (if any) keeps signing
// until $previous_expires_at (rotation overlap); one rotated out earlier is removed. The endpoint's
// lock comes first: a rotation or delete that overlaps waits, then sees this one's secrets (two
// rotations at once would otherwise both expire the same secret and leave two that never expire).
MATCH (w:WebhookEndpoint {id: $endpoint_id, project_id: $project_id})
SET w.updated_at = $now
// Deleted while this waited for the lock: the node is gone (its properties read null), nothing is written.
WITH w
WHERE w.id IS NOT NULL
CALL (w) {
  MATCH (old:WebhookSecret {endpoint_id: w.id})
  WHERE old.expires_at IS NOT NULL
  DELETE old
}
CALL (w) {
  MATCH (current:WebhookSecret {endpoint_id: w.id})
  WHERE current.expires_at IS NULL
  SET current.expires_at = $previous_expires_at
}
CREATE (s:WebhookSecret {id: $secret_id, endpoint_id: $endpoint_id, project_id: $project_id, ciphertext: $ciphertext,
                         iv: $iv, tag: $tag, key_id: $key_id, fingerprint: $fingerprint, set_at: $now, expires_at: null})
RETURN s.id AS id
