// The memory node as the API shows it (docs/memories.md): single reads add project_id, date_observed and
// recallable; search results leave them out.
import type { Plain } from '../db/values.js';

type Props = Record<string, Plain>;

export function memoryView(p: Props, mode: 'single' | 'search', now: Date = new Date()): Record<string, Plain> {
  const properties: Props = {
    kind: p.kind ?? null,
    content: p.content ?? null,
    memory_schema: p.memory_schema ?? null,
    scope: p.scope ?? null,
    subject: p.subject_name ?? null,
    predicate: p.predicate ?? null,
    object: p.object_name ?? null,
    source_context: p.source_context ?? null,
    forget_after: p.forget_after ?? null,
    forget_reason: p.forget_reason ?? null,
    valid_from: p.valid_from ?? null,
    valid_to: p.valid_to ?? null,
  };
  const view: Record<string, Plain> = {
    id: p.id ?? null,
    type: 'memory',
    name: p.name ?? null,
    properties,
    plane: 'memory',
  };
  if (mode === 'single') {
    properties.date_observed = p.date_observed ?? null;
    view.project_id = p.project_id ?? null;
    view.recallable = p.forget_after === null || p.forget_after === undefined || new Date(String(p.forget_after)) > now;
  }
  view.created_at = p.created_at ?? null;
  view.updated_at = p.updated_at ?? null;
  return view;
}

/** A short name derived from the content: its first sentence, at most eight words and 80 characters. */
export function memoryName(content: string): string {
  const sentence = content.trim().split(/(?<=[.!?])\s/)[0] ?? content;
  const words = sentence.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  const name = words.length > 80 ? `${words.slice(0, 79).trimEnd()}…` : words;
  return name.replace(/[.!?]+$/, '');
}
