// Takes the delta's write lock before reading its status, so of two concurrent applies (or an apply
// and a reject) the second sees the first one's outcome. The lock is a write of the id it already has:
// Neo4j takes the node's write lock and, the value being unchanged, records no change, so the apply's
// guard runs in a transaction without changes and on the plans the audit uses (Neo4j keys a cached plan
// by whether the transaction has changes: a first write before the guard made it plan all seventeen
// checks again, 6-15 s; docs/preflight.md, "Query plans"). The id never changes, so the value the
// statement read before it waited for the lock is still the value.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
SET d.id = d.id
WITH d
RETURN d.status AS status, d.applied_at AS applied_at
