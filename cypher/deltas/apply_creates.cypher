// Apply: new nodes lose :Pending and take their identity key (unique for committed entities).
MATCH (:Delta {id: $delta_id})-[:CREATED]->(n:Pending)
REMOVE n:Pending
SET n.identity_key = n.pending_identity_key
REMOVE n.pending_identity_key
RETURN count(n) AS applied
