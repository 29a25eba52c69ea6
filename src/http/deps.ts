// What route handlers are given: the graph, configuration, logger, the Temporal gateway and what the
// process runs (engines, worker). Routes pass it on to services, which each declare only the parts
// they use (src/shared/deps.ts); no service imports this bag.
import type { Config } from '../config/config.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { RuntimeDeps } from '../runtime/parts.js';
import type { GraphDeps, LoggerDeps, TemporalDeps } from '../shared/deps.js';

export interface Deps extends GraphDeps, EmbedderDeps, LoggerDeps, TemporalDeps, RuntimeDeps {
  config: Config;
}
