// Vector indexes (cosine) over the vector property of memories, document chunks and entities, and the context
// vector of memories;
// $dimensions (an integer) is the configured model's, EMBEDDINGS_DIMENSIONS. Run at start after the schema.
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
// A memory's context vector (docs/recall.md, "Context"): its episode predecessor's text and its own.
CREATE VECTOR INDEX memory_context_embedding IF NOT EXISTS FOR (m:Memory) ON (m.context_embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON (c.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
// A term's name (docs/recall.md, "Hops"): the hops walk from the terms nearest the question.
CREATE VECTOR INDEX term_embedding IF NOT EXISTS FOR (t:Term) ON (t.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON (e.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
