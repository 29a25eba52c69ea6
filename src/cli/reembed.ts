// `gks reembed`: starts (or, when one runs, follows) the reembed workflow for the configured model
// and prints its progress until it completes. The workflow id is reembed-<model>, so a second
// `gks reembed` attaches to the running one, and it is readable in the Temporal UI under that id.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import { gatewayFromConfig } from '../runtime/clients.js';
import type { ReembedProgress } from '../../workflows/reembed.js';
import { nodesWithoutModel } from '../embeddings/status.js';

export function reembedWorkflowId(model: string): string {
  return `reembed-${model.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
}

export async function runReembed(
  config: Config,
  graph: Graph,
  say: (line: string) => void,
  options: { detach: boolean },
): Promise<ReembedProgress | null> {
  if (config.embeddings.mode === 'off') throw new Error('EMBEDDINGS=off: there is no model to re-embed with.');
  const { model, dimensions } = config.embeddings;
  const stale = await nodesWithoutModel(graph, model);
  say(`model ${model} (${dimensions} dimensions): ${stale} memories, chunks and entities without its vectors`);
  const gateway = gatewayFromConfig(config);
  try {
    const client = await gateway.getClient();
    const workflowId = reembedWorkflowId(model);
    try {
      await client.workflow.start('reembed', {
        taskQueue: config.temporal.taskQueue,
        workflowId,
        args: [{ model, dimensions, batch_size: config.embeddings.batchSize }],
      });
      say(`started workflow ${workflowId}`);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      say(`workflow ${workflowId} is already running: following it`);
    }
    if (!config.temporal.address)
      say(
        `  Temporal UI: http://127.0.0.1:${config.temporal.uiPort}/namespaces/${config.temporal.namespace}/workflows/${workflowId}`,
      );
    if (options.detach) return null;
    const handle = client.workflow.getHandle(workflowId);
    const result = handle.result() as Promise<ReembedProgress>;
    let finished = false;
    void result.then(
      () => (finished = true),
      () => (finished = true),
    );
    while (!finished) {
      await new Promise((r) => setTimeout(r, 2_000));
      if (finished) break;
      const p = await handle.query<ReembedProgress>('progress').catch(() => null);
      if (p) say(`  scanned ${p.scanned}, embedded ${p.embedded}, left to the worker or without text ${p.skipped}`);
    }
    const done = await result;
    say(`re-embedded ${done.embedded} of ${done.scanned} nodes scanned; the vector indexes now serve ${model}`);
    return done;
  } finally {
    await gateway.close();
  }
}
