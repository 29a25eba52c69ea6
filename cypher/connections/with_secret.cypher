// A connection and its sealed secret read together under the connection's write lock (a property set and
// removed: nothing stays), for an outbound call. Edits that change the host or the secret take the same lock
// (cypher/connections/lock.cypher), so the pair read here is one edit's whole result: never the old host with
// a new secret meant for another host. $project_id null: any project (workflow inputs carry ids only).
MATCH (c:Connection:Knowledge {id: $id})
WHERE $project_id IS NULL OR c.project_id = $project_id
SET c.gks_lock = true
REMOVE c.gks_lock
WITH c
OPTIONAL MATCH (s:ConnectionSecret {connection_id: c.id})
WHERE s.project_id = c.project_id
RETURN properties(c) AS connection, c:Pending AS pending,
       s.ciphertext AS ciphertext, s.iv AS iv, s.tag AS tag, s.key_id AS key_id
