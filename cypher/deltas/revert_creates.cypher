// Revert: remove the nodes the delta created.
MATCH (:Delta {id: $delta_id})-[:CREATED]->(n)
DETACH DELETE n
RETURN count(n) AS reverted
