// The vector indexes at start: a wrong dimension is refused (naming the index and both dimensions),
// missing indexes are created for the configured model, and the model each index serves is read, so
// a changed model is detected (docs/embeddings.md "Changing the model").
import type { EmbeddingsConfig } from '../config/config.js';
import { cypherFolder, splitStatements } from '../db/cypher.js';
import type { Graph } from '../db/graph.js';
import {
  CONTEXT_VECTOR_INDEX,
  EMBEDDED_KINDS,
  TERM_VECTOR_INDEX,
  VECTOR_INDEXES,
  type EmbeddingModel,
} from './model.js';

const INDEX_NAMES = [...EMBEDDED_KINDS.map((k) => VECTOR_INDEXES[k].index), CONTEXT_VECTOR_INDEX, TERM_VECTOR_INDEX];

/** A vector index or an endpoint that does not match the configured dimensions: the service does not start. */
export class EmbeddingDimensionError extends Error {}

export interface IndexModel {
  name: string;
  /** The model whose vectors the index serves (the configured one, unless it changed since). */
  model: string;
  dimensions: number;
}

export function dimensionMismatch(index: string, indexDims: number, model: string, modelDims: number): string {
  return (
    `Embeddings: vector index ${index} holds ${indexDims}-dimension vectors, but the embedding model ${model} ` +
    `answers ${modelDims} dimensions. Refusing to start. Either set EMBEDDINGS_MODEL / EMBEDDINGS_DIMENSIONS ` +
    `back to a ${indexDims}-dimension model, or drop the vector indexes ` +
    `(DROP INDEX ${INDEX_NAMES.join('; DROP INDEX ')}) so they are created anew, then run \`gks reembed\` ` +
    '(docs/embeddings.md, "Changing the model").'
  );
}

/** cypher/embeddings/index_dimensions.cypher's rows (declared, not checked). */
interface IndexDimensionsRow {
  name: string;
  /** The index's `vector.dimensions` option: absent when it was created without one. */
  dimensions: number | null;
}

/** cypher/embeddings/index_models.cypher's rows (declared, not checked). */
interface IndexModelRow {
  name: string;
  model: string;
  dimensions: number | null;
}

/** Refuses existing indexes of other dimensions, creates missing ones, and returns each index's model. */
export async function prepareVectorIndexes(
  graph: Graph,
  config: Pick<EmbeddingsConfig, 'mode' | 'model' | 'dimensions'>,
): Promise<IndexModel[]> {
  if (config.mode === 'off') return [];
  const existing = await graph.read((tx) =>
    tx.run<IndexDimensionsRow>('embeddings/index_dimensions', { names: INDEX_NAMES }),
  );
  existing.sort((a, b) => INDEX_NAMES.indexOf(a.name) - INDEX_NAMES.indexOf(b.name));
  for (const row of existing) {
    // Number(): an index created without dimensions has none (null reads as 0, a mismatch).
    const dims = Number(row.dimensions);
    if (dims !== config.dimensions)
      throw new EmbeddingDimensionError(dimensionMismatch(row.name, dims, config.model, config.dimensions));
  }
  const [file] = cypherFolder('embeddings').filter((f) => f.name === 'embeddings/vector_indexes');
  for (const statement of splitStatements(file?.text ?? ''))
    await graph.write((tx) => tx.runText(statement, { dimensions: BigInt(config.dimensions) }), {
      purpose: 'schema:embeddings/vector_indexes',
    });
  await graph.read((tx) => tx.runText('CALL db.awaitIndexes(300)'));
  // Terms without a vector of this model (made before terms had vectors, or under another model) join the queue.
  await graph.write((tx) => tx.run('embeddings/queue_terms', { model: config.model }), {
    purpose: 'schema:embeddings/queue_terms',
  });
  const rows = await graph.write((tx) =>
    tx.run<IndexModelRow>('embeddings/index_models', {
      names: INDEX_NAMES,
      model: config.model,
      dimensions: config.dimensions,
    }),
  );
  // Number() kept: the statement returns the record's dimensions as stored, which it does not guarantee.
  return rows.map((r) => ({ name: r.name, model: r.model, dimensions: Number(r.dimensions) }));
}

/** Refuses an endpoint that answers vectors of other dimensions than the indexes hold. */
export function checkAnsweredDimensions(model: EmbeddingModel, answered: number): void {
  if (answered !== model.dimensions)
    throw new EmbeddingDimensionError(
      dimensionMismatch(INDEX_NAMES[0] as string, model.dimensions, model.id, answered),
    );
}
