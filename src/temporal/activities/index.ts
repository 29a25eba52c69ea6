// Builds the activities from their dependencies (the graph and configuration), so the worker and
// tests hand in real ones. Each area contributes its own activity functions.
import { createEmbeddingActivities } from '../../embeddings/activities.js';
import type { Embedder } from '../../embeddings/model.js';
import type { Graph } from '../../db/graph.js';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { createConnectionActivities } from '../../connections/activities.js';
import { createLoopActivities } from '../../loops/activities.js';
import { createWebhookActivities } from '../../webhooks/activities.js';
import { compileShape, loadShape, type CompiledShape } from '../../shapes/validate.js';
import type { ShapeDef } from '../../shapes/types.js';

export interface ActivityDeps {
  graph: Graph;
  config: Config;
  /** The service logger (redacting; `npm run worker` makes its own); absent, activities log nothing. */
  logger?: Logger;
  /** Recall by meaning; null or absent when EMBEDDINGS=off or no engine is known (lexical only). */
  embedder?: Embedder | null;
}

export function createActivities(deps: ActivityDeps) {
  // Compiling a shape's ajv schemas is costly; a shape version never changes, so cache by id.
  const compiled = new Map<string, CompiledShape>();
  const compiledOf = (shape: ShapeDef): CompiledShape => {
    let c = compiled.get(shape.id);
    if (!c) {
      c = compileShape(shape);
      compiled.set(shape.id, c);
    }
    return c;
  };
  return {
    async checkGraph(): Promise<{ name: string; version: string; edition: string }> {
      const row = await deps.graph.read((tx) => tx.one('system/components'));
      return { name: String(row?.name), version: String(row?.version), edition: String(row?.edition) };
    },
    ...createLoopActivities({
      graph: deps.graph,
      config: deps.config,
      embedder: deps.embedder ?? null,
      loadShape: (projectId, shapeId) => loadShape(deps.graph, shapeId, projectId),
      validateEntity: (shape, label, properties) =>
        compiledOf(shape)
          .validateEntity(label, properties)
          .map((p) => `${p.field || label}: ${p.reason}`),
    }),
    ...createConnectionActivities({ graph: deps.graph, config: deps.config, logger: deps.logger }),
    ...createEmbeddingActivities({ graph: deps.graph, embedder: deps.embedder ?? null }),
    ...createWebhookActivities({ graph: deps.graph, config: deps.config, logger: deps.logger }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
