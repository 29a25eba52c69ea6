// Apply, step 2 of 2: delete the nodes whose snapshots step 1 took.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(:Change {op: 'delete_node'})-[:TARGET]->(n)
DETACH DELETE n
RETURN count(n) AS deleted
