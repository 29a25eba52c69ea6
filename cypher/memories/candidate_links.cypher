// A fragment, not a statement: included (src/db/cypher.ts) by the memory statements of recall (memories/search,
// memories/vector, memories/context_vector, memories/observed). For a candidate `node` (with $links true), what the
// channels of recall read beside its text (docs/recall.md): its committed episode, when it was observed (epoch
// ms), and, for the hops (a question naming people or things: $terms not empty), the terms it mentions that the
// question names or that few memories mention (at most $rare_terms): [key, role, memories mentioning it (the term's
// degree)]; without hops none are read (the degrees are the largest part of the links' cost). Null with $links false.
CASE WHEN $links THEN {
  episode_id: head([(node)-[ie:IN_EPISODE]->(ep:Episode) WHERE ie.pending IS NULL AND NOT ep:Pending | ep.id]),
  observed_ms: coalesce(node.observed_at, node.created_at).epochMillis,
  terms: CASE WHEN size($terms) = 0 THEN [] ELSE
         [(node)-[r:MENTIONS]->(t:Term)
          WHERE t.key IN $terms OR COUNT { (t)<-[:MENTIONS]-() } <= $rare_terms
          | [t.key, r.role, COUNT { (t)<-[:MENTIONS]-() }]] END
} END
