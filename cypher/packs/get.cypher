// One committed saved context pack of the project by id, with the SELECTED links still present
// (committed ones), in pack order: the pack's plane order, then rank.
MATCH (p:ContextPack:Knowledge {id: $id})
USING INDEX p:Knowledge(id)
WHERE p.project_id = $project_id AND NOT p:Pending
CALL (p) {
  OPTIONAL MATCH (p)-[s:SELECTED]->(x:Knowledge)
  WHERE s.pending IS NULL
  WITH s, x, [i IN range(0, size(coalesce(p.planes, [])) - 1) WHERE p.planes[i] = s.section][0] AS plane_order
  ORDER BY plane_order, s.rank, x.id
  RETURN collect(CASE WHEN x IS NULL THEN null ELSE {
           id: x.id, ref: s.ref, section: s.section, rank: s.rank,
           type: CASE WHEN x:Memory THEN 'memory' WHEN x:Chunk THEN 'chunk' ELSE 'entity' END
         } END) AS selected
}
RETURN properties(p) AS pack, selected
