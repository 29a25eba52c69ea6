// Preflight by meaning (docs/recall.md, "Near duplicates by meaning"): the memories and entities a
// staged delta creates, with their labels and properties, so the audit can embed them as passages
// from the text the embedding worker would use (src/embeddings/worker.ts nodeText) before asking the
// vector indexes for their committed neighbours.
// Run by hand: :param delta_id => '<delta id>'  :param project_id => '<project id>'
// Kept plan (replan=skip): the audit is anchored on its delta and its project (index hints), so statistics never
// change the right plan, and Neo4j planned it again inside the first audits after a young graph grew.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
MATCH (d)-[:CREATED]->(n)
WHERE (n:Memory AND n.content IS NOT NULL) OR (n:Entity AND n.name IS NOT NULL)
RETURN CASE WHEN n:Memory THEN 'memory' ELSE 'entity' END AS kind, n.id AS id, labels(n) AS labels,
       n {.*, embedding: null, context_embedding: null} AS props
ORDER BY kind DESC, id
