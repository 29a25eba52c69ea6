// A briefing written by the configured LLM spends a paid external service, so it is charged to the
// organization like a loop (LLM_BRIEFING_CREDITS per briefing, refunded when the LLM fails); the
// built-in writer is local and deterministic and costs nothing.
import type { Actor } from '../auth/actor.js';
import type { Graph } from '../db/graph.js';
import { chargedCall } from './service.js';
import { BuiltinBriefingWriter } from '../briefing/builtin.js';
import type { BriefingWriter } from '../briefing/types.js';

/** The writer, charging each briefing to the actor's organization when it is the external LLM. */
export function paidWriter(writer: BriefingWriter, graph: Graph, actor: Actor, credits: number): BriefingWriter {
  if (writer instanceof BuiltinBriefingWriter || credits <= 0) return writer;
  return {
    model: writer.model,
    write: (input) =>
      chargedCall(
        graph,
        {
          organizationId: actor.organizationId,
          projectId: actor.projectId,
          amount: credits,
          reason: `briefing by ${writer.model}`,
          requestId: actor.requestId,
        },
        () => writer.write(input),
      ),
  };
}
