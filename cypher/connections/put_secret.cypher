// Seals a connection's secret on its engine-owned node (replacing any earlier one).
MERGE (s:ConnectionSecret {connection_id: $connection_id})
SET s.project_id = $project_id, s.ciphertext = $ciphertext, s.iv = $iv, s.tag = $tag, s.key_id = $key_id,
    s.fingerprint = $fingerprint, s.set_at = datetime($now)
RETURN s.connection_id AS connection_id
