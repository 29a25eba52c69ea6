// One committed shape of the project, its write lock taken first (a property set and removed: nothing
// stays), or no row. A delete runs it in its write transaction before it counts what uses the shape;
// writes through the shape take the same lock (deltas/lock_shapes.cypher).
MATCH (s:Shape {id: $id})
USING INDEX s:Shape(id)
WHERE s.project_id = $project_id AND NOT s:Pending
SET s.gks_lock = true
REMOVE s.gks_lock
// Deleted while this waited for the lock (its properties read null): no row.
WITH s
WHERE s.id IS NOT NULL
RETURN s.id AS id
