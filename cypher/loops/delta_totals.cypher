// How much a loop has staged so far: entities and relationships in its delta.
MATCH (d:Delta {id: $delta_id})
CALL (d) { MATCH (d)-[:CREATED]->(n:Entity) RETURN count(n) AS entities }
CALL (d) { MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'}) WHERE c.type <> 'EXTRACTED_FROM' RETURN count(c) AS relationships }
RETURN entities, relationships
