// The published fields of a briefing answer (docs/memories.md), shared by memory synthesize and context brief.
import type { JsonSchema } from '../http/route.js';

export const briefingProperties = {
  text: { type: 'string' },
  markdown: { type: 'string' },
  format: { const: 'markdown' },
  project_id: { type: 'string' },
  spec: { type: 'object' },
  sources: { type: 'array', maxItems: 0 },
  model: { type: 'string' },
  persisted: { const: false },
} as const satisfies Record<string, JsonSchema>;
