// A fragment, not a statement: included by the hops by meaning (docs/recall.md, "Hops"), memories/walk_near and
// memories/walk_held, each of which gives it rows (t, weight): the terms the walk starts from, each with its weight.
// A memory's walk is the sum, over the terms it mentions, of the term's weight times its rarity
// (1 / log2(2 + memories mentioning it)); a term more than $max_degree memories mention says little of any one of
// them and is not walked. The memories are the project's committed, still-recallable ones valid at $valid_at. It
// ends a CALL's body: `walked`, the best $candidates memories by walk (ties: the nearer by its own cosine to the
// question, returned; null without a vector of $model), each with, when $links, what recall's channels read beside
// its text (memories/candidate_links).
WITH t, weight, COUNT { (t)<-[:MENTIONS]-() } AS degree
WHERE degree <= $max_degree
MATCH (t)<-[:MENTIONS]-(node:Memory)
WHERE NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
  AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
  AND ($kinds IS NULL OR node.kind IN $kinds)
  AND ($episode IS NULL OR node.episode = $episode)
// A memory mentions a term once (the mention worker links each term of a text once: memories/terms_store).
WITH node, sum(weight * log(2.0) / log(2.0 + degree)) AS walk
// The cosine is read for the best twice $candidates only (a walk of 20 terms may reach thousands of memories).
// Equal walks at that cut are taken in the store's own order (elementId, fixed while the graph is unchanged):
// ordering thousands of memories by their id property cost a quarter of the walk at 100k memories.
ORDER BY walk DESC, elementId(node)
LIMIT toInteger($candidates) * 2
WITH node, walk, CASE WHEN node.embedding_model = $model AND node.embedding IS NOT NULL
                   THEN vector.similarity.cosine(node.embedding, $vector) END AS similarity
ORDER BY walk DESC, coalesce(similarity, -2.0) DESC, node.id
LIMIT toInteger($candidates)
RETURN collect({similarity: similarity, memory: node {.id, .name, .content}, links:
// include: memories/candidate_links
}) AS walked
