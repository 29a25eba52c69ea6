// Apply: snapshot each relationship to delete onto its change record (property keys and old.<key>
// values), then delete it. Runs before node deletions, so those do not snapshot it a second time.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_relationship'})-[:FROM]->(a)
USING INDEX d:Delta(id)
MATCH (c)-[:TO]->(b)
// Both ends first: the relationship is sought between them, never among all of one end's relationships.
WITH c, a, b
MATCH (a)-[r]->(b)
WHERE r.id = c.relationship_id
SET c.old_keys = keys(r)
FOREACH (k IN keys(r) | SET c['old.' + k] = r[k])
DELETE r
RETURN count(c) AS applied
