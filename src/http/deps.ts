// What route handlers are given: the graph, configuration, logger and the optional loop dispatcher.
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';

export interface TemporalProbe {
  ping(): Promise<boolean>;
}

export interface Deps {
  graph: Graph;
  config: Config;
  logger: Logger;
  temporal: TemporalProbe;
  /** Area services registered at start (loops dispatcher etc.), looked up by area modules. */
  services: Map<string, unknown>;
}
