// Takes the write lock of committed entities of the project (a property set and removed: nothing stays)
// before a correction reads them, so a write linking to one of them at the same time either committed
// first, and is seen (as a dependant, or a relationship a merge moves), or waits for the correction
// (docs/deltas.md, "Concurrent writes"). Ids in a fixed order, so two merges lock in the same order.
UNWIND $ids AS id
MATCH (e:Entity:Knowledge {id: id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
SET e.gks_lock = true
REMOVE e.gks_lock
RETURN e.id AS id
