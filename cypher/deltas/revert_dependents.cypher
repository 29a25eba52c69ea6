// Later deltas (applied or staged) that touch what this delta created or changed: revert is refused
// while they exist, so undoing never leaves their work dangling.
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n) RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET|FROM|TO]->(n) RETURN n
}
MATCH (n)<-[:TARGET|FROM|TO]-(:Change)<-[:HAS_CHANGE]-(later:Delta)
WHERE later <> d AND (later.status = 'staged' OR (later.status = 'applied' AND later.applied_at >= d.applied_at))
RETURN DISTINCT later.id AS id, later.status AS status
ORDER BY id
