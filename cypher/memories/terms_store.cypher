// Stores what the mention worker read of a batch of memories: each memory's (:Memory)-[:MENTIONS {role}]->(:Term)
// links replace the ones it had (row.terms; null: its text is unchanged, the links stay), and it leaves the queue.
// A term is one per project and key (a name lower-cased, a noun or activity by its stem: src/extractor/
// recallTerms.ts), made on first mention; how many memories mention it is its degree, read when recall weighs it.
// A term made here is queued for its vector ($embed: embeddings on), embedded from its name by the embedding worker.
// A memory queued again since it was read (a newer mentions_queued_at) keeps its place and is read again next.
UNWIND $rows AS row
MATCH (m:Memory)
WHERE elementId(m) = row.element_id AND m.mentions_queued_at = datetime(row.queued_at)
CALL (m, row) {
  WITH m, row WHERE row.terms IS NOT NULL
  OPTIONAL MATCH (m)-[old:MENTIONS]->(:Term)
  DELETE old
}
CALL (m, row) {
  WITH m, row WHERE row.terms IS NOT NULL
  UNWIND row.terms AS x
  MERGE (t:Term {project_id: m.project_id, key: x.key})
  ON CREATE SET t.name = x.name, t.kind = x.kind, t.created_at = datetime(),
                t.embedding_queued_at = CASE WHEN $embed THEN datetime() END
  CREATE (m)-[:MENTIONS {role: x.role}]->(t)
}
SET m.mentions_queued_at = null, m.mentions_hash = row.hash
RETURN count(m) AS stored
