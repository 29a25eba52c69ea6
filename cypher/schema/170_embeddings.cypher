// Embeddings: the queue of nodes waiting for a vector (embedding_queued_at set), oldest first, per
// kind (docs/embeddings.md), and one record per vector index naming the model it serves. The vector
// indexes themselves need the model's dimensions and are created from cypher/embeddings/.
CREATE INDEX memory_embedding_queue IF NOT EXISTS FOR (n:Memory) ON (n.embedding_queued_at);
CREATE INDEX chunk_embedding_queue IF NOT EXISTS FOR (n:Chunk) ON (n.embedding_queued_at);
CREATE INDEX entity_embedding_queue IF NOT EXISTS FOR (n:Entity) ON (n.embedding_queued_at);
CREATE CONSTRAINT embedding_index_name IF NOT EXISTS FOR (i:EmbeddingIndex) REQUIRE i.name IS UNIQUE;
