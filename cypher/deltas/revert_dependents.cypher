// Later deltas (applied or staged) that touch what this delta created or changed: revert is refused
// while they exist, so undoing never leaves their work dangling. Four ways to find them:
//   - through the graph: a change of the later delta names (TARGET, FROM, TO) a node this delta
//     created or changed;
//   - by id, for a node this delta changed that a later delta deleted: the node is gone with its
//     links, but the later delta's change records name it (node_id);
//   - by the deletion's snapshot, for a node this delta created that a later delta deleted: the
//     snapshot keeps the node's delta_id, the delta that created it (`old.delta_id`);
//   - through a shape this delta created: the deltas that made nodes through it (shape_id), whose
//     nodes would otherwise name a shape that is gone.
// Without the last two, reverting a re-index after its document was deleted restored the old chunks
// beside no document (docs/deltas.md, "Concurrent writes" and "Revert").
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  CALL (d) {
    MATCH (d)-[:CREATED]->(n) RETURN n
    UNION
    MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET|FROM|TO]->(n) RETURN n
  }
  MATCH (n)<-[:TARGET|FROM|TO]-(:Change)<-[:HAS_CHANGE]-(later:Delta)
  RETURN later, true AS linked
  UNION
  MATCH (d)-[:HAS_CHANGE]->(c:Change)
  // (no "c.node_id IS NOT NULL" here: the planner would scan the node_id index for it; a null matches nothing)
  MATCH (lc:Change {node_id: c.node_id})
  MATCH (later:Delta {id: lc.delta_id})
  USING INDEX later:Delta(id)
  RETURN later, false AS linked
  UNION
  MATCH (lc:Change {`old.delta_id`: d.id})
  WHERE lc.op = 'delete_node'
  MATCH (later:Delta {id: lc.delta_id})
  USING INDEX later:Delta(id)
  RETURN later, false AS linked
  UNION
  // Nodes made through a shape this delta created (their shape_id: a property, not a link).
  MATCH (d)-[:CREATED]->(s:Shape)
  MATCH (x:Knowledge {project_id: s.project_id})
  USING INDEX SEEK x:Knowledge(project_id)
  WHERE x.shape_id = s.id AND x.delta_id <> d.id
  MATCH (later:Delta {id: x.delta_id})
  USING INDEX later:Delta(id)
  RETURN later, true AS linked
}
// A staged delta found by id alone counts when it was staged after this delta applied: one staged before
// names a node this delta deleted, and is stale rather than built on it.
WITH d, later, linked
WHERE later <> d
  AND ((later.status = 'applied' AND later.applied_at >= d.applied_at)
    OR (later.status = 'staged' AND (linked OR later.created_at >= d.applied_at)))
RETURN DISTINCT later.id AS id, later.status AS status
ORDER BY id
