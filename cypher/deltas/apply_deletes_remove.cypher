// Apply, step 2 of 2: delete the nodes whose snapshots step 1 took.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(:Change {op: 'delete_node'})-[:TARGET]->(n)
USING INDEX d:Delta(id)
DETACH DELETE n
RETURN count(n) AS deleted
