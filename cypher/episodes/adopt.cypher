// Apply of a staged delta that created an episode whose key a committed episode has taken since (another delta
// created it first): the staged memories join the committed episode instead. Their IN_EPISODE links and the
// links' change records move to it, the delta's episode_ids name it, and the staged episode is removed, so two
// staged halves of one conversation both apply (each would otherwise collide on the episode's identity).
MATCH (d:Delta {id: $delta_id})-[:CREATED]->(p:Episode:Pending)
MATCH (e:Episode {identity_key: p.pending_identity_key})
WITH d, p, e
CALL (d, p, e) {
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship', type: 'IN_EPISODE'})-[to:TO]->(p)
  MATCH (c)-[:FROM]->(m)
  MATCH (m)-[r:IN_EPISODE]->(p)
  WHERE r.id = c.relationship_id
  CREATE (m)-[moved:IN_EPISODE]->(e)
  SET moved = properties(r)
  CREATE (c)-[:TO]->(e)
  DELETE to, r
  RETURN count(moved) AS moved
}
SET d.episode_ids = [x IN d.episode_ids | CASE WHEN x = p.id THEN e.id ELSE x END]
DETACH DELETE p
RETURN count(*) AS adopted
