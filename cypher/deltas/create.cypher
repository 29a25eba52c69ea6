// A new delta, the reviewable unit of every write, created with its new nodes in the same statement:
// each statement a write sends costs the engine a round of work of its own, so a write of nodes only
// (a memory, a batch) is this statement alone. The delta's other changes hang off it by the statements
// after this one (HAS_CHANGE); nodes added to a delta that exists already go through deltas/stage_nodes,
// which writes them as this statement does for a staged delta.
// $applied: a write applied at once is born applied, and its nodes are written in their committed form.
// Staged nodes carry :Pending beside their own labels and keep their identity in pending_identity_key.
// $shared: the properties every new node has with the same value, sent once (a batch of memories shares its kind,
// scope, schema, shape, date and tenant); each row's props are the rest. $labels: the labels when every new node has
// the same, else null and each row has its own (x.labels). A row without identity_key has none (null).
// It answers the project's count of webhook endpoints (webhook_endpoints; null on a project from before the
// count): the write sends the outbox statement (webhooks/emit) after this one only when there may be one.
// $standing: the request's standing check this statement carries (Graph.writeCarrying, Graph.writeAlone), or null;
// answered as `standing` by the fragment below (auth/key_standing's reads), so a write pays no statement of its own.
// $alone (Graph.writeAlone): the statement is the write's whole transaction, committed as it answers, so it writes
// only when nothing else must run before the commit: the key stands (not unknown, revoked or orphaned: what
// auth/key_standing's refusal says; keep the two alike) and the project has no webhook endpoint (no outbox event
// to record beside it). Otherwise it answers no row and writes nothing, and the write takes a transaction.
MATCH (p:TenantProject {id: $project_id})
// include: auth/standing_subquery
WITH p, standing
WHERE NOT $alone OR (
  coalesce(p.webhook_endpoints, 1) = 0 AND
  ($standing IS NULL OR (standing IS NOT NULL AND NOT standing.revoked AND NOT standing.orphaned))
)
CREATE (d:Delta {
  id: $delta_id, project_id: $project_id, organization_id: p.organization_id,
  status: CASE WHEN $applied THEN 'applied' ELSE 'staged' END,
  origin: $origin, summary: $summary, created_by: $key_id, request_id: $request_id,
  created_at: datetime($now), updated_at: datetime($now), change_count: $change_count,
  applied_at: CASE WHEN $applied THEN datetime($now) END, applied_by: CASE WHEN $applied THEN $key_id END,
  // the episodes its memories join or leave (null: none), relinked when it is applied or reverted (episodes/relink)
  episode_ids: $episode_ids
})
CREATE (d)-[:IN_PROJECT]->(p)
WITH d, p, standing
CALL (d) {
  UNWIND $nodes AS x
  WITH x, coalesce(x.labels, $labels) AS labels
  CREATE (n:Knowledge:$(CASE WHEN $applied THEN labels ELSE labels + ['Pending'] END))
  SET n = x.props, n += $shared,
      n.id = x.id, n.project_id = $project_id, n.delta_id = $delta_id,
      n.pending_identity_key = CASE WHEN $applied THEN null ELSE x.identity_key END,
      n.identity_key = CASE WHEN $applied THEN x.identity_key END,
      n.created_at = datetime($now), n.updated_at = datetime($now),
      // applied with $embed: a memory, chunk or entity joins the embedding queue (docs/embeddings.md)
      n.embedding_queued_at = CASE WHEN $embed AND any(l IN labels WHERE l IN ['Memory', 'Chunk', 'Entity'])
        THEN datetime($now) END,
      // applied: a memory joins the mention worker's queue (docs/recall.md, "Hops")
      n.mentions_queued_at = CASE WHEN $applied AND 'Memory' IN labels THEN datetime($now) END
  CREATE (d)-[:CREATED {seq: x.seq, change_id: x.change_id}]->(n)
  RETURN count(n) AS staged
}
RETURN d.id AS id, staged, p.webhook_endpoints AS webhook_endpoints, standing
