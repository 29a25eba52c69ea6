// Helpers for loop tests: a source document, waiting for a loop to end, paging its events.
import assert from 'node:assert/strict';
import type { Tenant } from '../support/api.js';

export const GENERAL_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000002';

export const STORY = [
  'Ada Lovelace works for Analytical Engines Ltd. Analytical Engines Ltd is based in London.',
  'Charles Babbage works for Analytical Engines Ltd. Charles Babbage designed the Difference Engine.',
  'Grace Hopper works for Remington Rand. Remington Rand is headquartered in New York.',
  'Alan Turing joined Bletchley Park. Bletchley Park is located in Buckinghamshire.',
].join('\n\n');

/** A longer text (repeated story with varied names) for loops that must last a few seconds. */
export function longStory(paragraphs: number): string {
  const out: string[] = [];
  for (let i = 0; i < paragraphs; i += 1) {
    out.push(
      `Person${i} Smith works for Company${i % 50} Holdings. Company${i % 50} Holdings is based in City${i % 20}. ${STORY}`,
    );
  }
  return out.join('\n\n');
}

export async function createDocument(t: Tenant, content: string, title = 'History of computing'): Promise<string> {
  const reply = await t.post('/v1/documents', { content, title });
  if (reply.status !== 201) throw new Error(`document create ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id as string;
}

export async function waitForLoop(t: Tenant, loopId: string, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await t.get(`/v1/loops/${loopId}`);
    if (['completed', 'failed', 'cancelled'].includes(reply.body.status)) return reply.body;
    if (Date.now() > deadline) throw new Error(`loop ${loopId} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function allEvents(
  t: Tenant,
  loopId: string,
  limit: number,
): Promise<{ sequence: number; type: string; activity_name: string | null; summary: string }[]> {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await t.get(`/v1/loops/${loopId}/events?after_sequence=${after}&limit=${limit}`);
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    events.push(...page.body.events);
    after = page.body.next_after_sequence;
    if (!page.body.has_more) return events;
  }
}

/**
 * Starts a graph extraction of one document through the general shape, or the shapes given (202
 * asserted), and returns the start answer (loop_id, delta_id, ...). loop: the loop settings (one
 * iteration by default).
 */
export async function startExtraction(
  t: Tenant,
  documentId: string,
  options: { goal?: string; loop?: Record<string, unknown>; key?: string; shapeIds?: string[] } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
): Promise<Record<string, any>> {
  const body = {
    kind: 'graph_extraction',
    goal: options.goal ?? 'who works where',
    context: { source_ids: [documentId] },
    schema: { shape_ids: options.shapeIds ?? [GENERAL_SHAPE_ID] },
    loop: options.loop ?? { max_iterations: 1 },
  };
  const started = await t.post('/v1/loops', body, options.key ? { key: options.key } : {});
  assert.equal(started.status, 202, JSON.stringify(started.body));
  return started.body;
}

/**
 * A launch checklist document and a lesson about the Launch event, then a hydrate loop on that subject with up to
 * maxIterations (202 asserted); returns the start answer.
 */
export async function startLaunchHydrate(
  t: Tenant,
  maxIterations: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
): Promise<Record<string, any>> {
  await createDocument(t, 'The launch checklist covers rollback plans and release notes.', 'Launch checklist');
  await t.post('/v1/memories', {
    content: 'Launch rollback must be rehearsed.',
    kind: 'lesson',
    subject: { name: 'Launch', type: 'Event' },
  });
  const started = await t.post('/v1/loops', {
    kind: 'hydrate',
    goal: 'prepare the launch rollback',
    context: { subject: 'Launch' },
    loop: { max_iterations: maxIterations, quality_threshold: 1 },
  });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  return started.body;
}
