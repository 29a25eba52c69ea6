// What route handlers are given: the graph, configuration, logger, the Temporal gateway and what the
// process runs (engines, worker). Routes pass it on to services, which each declare only the parts
// they use (src/services/deps.ts); no service imports this bag.
import type { Config } from '../config/config.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { GraphDeps, LoggerDeps, RuntimeDeps, TemporalDeps } from '../services/deps.js';

export interface Deps extends GraphDeps, EmbedderDeps, LoggerDeps, TemporalDeps, RuntimeDeps {
  config: Config;
}
