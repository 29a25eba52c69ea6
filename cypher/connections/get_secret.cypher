// The sealed secret of a connection of the project (opened only in memory, for an outbound call).
MATCH (s:ConnectionSecret {connection_id: $connection_id})
WHERE s.project_id = $project_id
RETURN s.ciphertext AS ciphertext, s.iv AS iv, s.tag AS tag, s.key_id AS key_id
