// Keeps the episodes a delta touched (d.episode_ids: those its memories joined or left) in step with their committed
// memories, in the transaction that applied or reverted it: (:Memory)-[:NEXT]->(:Memory) in observed order (then
// id), and the episode's memory_count, first_observed_at, last_observed_at and text (its latest 200 memories in
// order, at most 20,000 characters: what the episode_text full-text index ranks). The chain is derived from the
// memories, as an index is: its links carry no change record, so a delete or revert in the middle of a
// conversation relinks it here and no later delta depends on an earlier one through NEXT (docs/episodes.md).
// Each episode is locked first (a property set and removed), in id order: two writes to one episode run one after
// the other, the second reading the memories the first committed. A memory that gained a predecessor joins the
// embedding queue ($embed): its context vector is made from the predecessor's text and its own.
MATCH (d:Delta {id: $delta_id})
UNWIND coalesce(d.episode_ids, []) AS eid
WITH DISTINCT eid
ORDER BY eid
MATCH (e:Knowledge {id: eid})
USING INDEX e:Knowledge(id)
WHERE e:Episode AND NOT e:Pending
SET e.gks_lock = true
REMOVE e.gks_lock
WITH e
CALL (e) {
  MATCH (e)<-[r:IN_EPISODE]-(m:Memory)
  WHERE r.pending IS NULL AND NOT m:Pending
  WITH m
  ORDER BY coalesce(m.observed_at, m.created_at), m.id
  RETURN collect(m) AS members
}
CALL (members) {
  UNWIND range(0, size(members) - 1) AS i
  WITH members[i] AS a, members[i + 1] AS want
  MATCH (a)-[r:NEXT]->(b)
  WHERE r.pending IS NULL AND (want IS NULL OR b <> want)
  DELETE r
  // b lost this predecessor: its context vector is made again (from its new one, or none)
  SET b.embedding_queued_at = CASE WHEN $embed THEN datetime($now) ELSE b.embedding_queued_at END
  RETURN count(r) AS unlinked
}
CALL (e, members) {
  UNWIND range(0, size(members) - 2) AS i
  WITH members[i] AS a, members[i + 1] AS b
  MERGE (a)-[r:NEXT]->(b)
  ON CREATE SET r.id = randomUUID(), r.project_id = e.project_id, r.delta_id = $delta_id,
                r.created_at = datetime($now),
                b.embedding_queued_at = CASE WHEN $embed THEN datetime($now) ELSE b.embedding_queued_at END
  RETURN count(r) AS linked
}
WITH e, members, [m IN members[-200..] | m.content] AS recent
SET e.memory_count = size(members),
    e.first_observed_at = coalesce(members[0].observed_at, members[0].created_at),
    e.last_observed_at = coalesce(members[-1].observed_at, members[-1].created_at),
    e.text = left(reduce(s = '', c IN recent | s + c + '\n'), 20000),
    e.updated_at = datetime($now)
RETURN count(e) AS relinked
