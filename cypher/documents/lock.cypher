// One committed document of the project, its write lock taken first (a property set and removed: nothing
// stays), or no row. Corrections (delete, re-index) run it in their write transaction before they read the
// chunks they replace, so two corrections of one document run one after the other and the second reads the
// chunks the first committed (docs/deltas.md, "Concurrent writes").
MATCH (d:Document:Knowledge {id: $id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
SET d.gks_lock = true
REMOVE d.gks_lock
// Deleted while this waited for the lock (its properties read null): no row.
WITH d
WHERE d.id IS NOT NULL
RETURN properties(d) AS document
