// Revert: the relationship snapshots of the deleted nodes have been restored; drop them.
MATCH (:Delta {id: $delta_id})-[:HAS_CHANGE]->(:Change {op: 'delete_node'})-[:HAD_RELATIONSHIP]->(s:RelationshipSnapshot)
DETACH DELETE s
RETURN count(s) AS dropped
