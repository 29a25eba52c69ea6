// The committed subject and object links of one committed memory of the project, with relationship ids
// (corrections replace them), and its episode link, or no row when the memory is not committed here. Corrections run it in their
// write transaction: it first takes the memory's write lock (a property set and removed: nothing stays), so
// two corrections of one memory, or a correction and a revert, run one after the other and each reads what
// the other committed (docs/deltas.md, "Concurrent writes").
MATCH (m:Memory:Knowledge {id: $id})
USING INDEX m:Knowledge(id)
WHERE m.project_id = $project_id AND NOT m:Pending
SET m.gks_lock = true
REMOVE m.gks_lock
// Deleted while this waited for the lock (its properties read null): no row.
WITH m
WHERE m.id IS NOT NULL
OPTIONAL MATCH (m)-[r:HAS_SUBJECT|HAS_OBJECT]->(e:Entity)
WHERE r.pending IS NULL AND NOT e:Pending
WITH m, [x IN collect({type: type(r), relationship_id: r.id, entity_id: e.id}) WHERE x.type IS NOT NULL] AS links
// Its committed episode link (a correction may move it to another episode; a delete relinks the episode).
OPTIONAL MATCH (m)-[ir:IN_EPISODE]->(ep:Episode)
WHERE ir.pending IS NULL AND NOT ep:Pending
RETURN m {.*, embedding: null, context_embedding: null} AS memory, links,
       CASE WHEN ep IS NULL THEN null ELSE {relationship_id: ir.id, episode_id: ep.id} END AS episode_link
