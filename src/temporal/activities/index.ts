// Builds the activities from their dependencies (the graph and configuration), so the worker and
// tests hand in real ones. Each area contributes its own activity functions.
import type { Graph } from '../../db/graph.js';
import type { Config } from '../../config/config.js';

export interface ActivityDeps {
  graph: Graph;
  config: Config;
}

export function createActivities(deps: ActivityDeps) {
  return {
    async checkGraph(): Promise<{ name: string; version: string; edition: string }> {
      const row = await deps.graph.read((tx) => tx.one('system/components'));
      return { name: String(row?.name), version: String(row?.version), edition: String(row?.edition) };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
