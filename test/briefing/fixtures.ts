// Sample memories shared by the briefing tests: one or more of every kind, with scores and dates
// chosen so that selection order is known in advance.
import type { BriefingInput, BriefingMemory } from '../../src/briefing/types.js';

export function memory(
  id: string,
  kind: BriefingMemory['kind'],
  content: string,
  extra: Partial<BriefingMemory> = {},
): BriefingMemory {
  return { id, kind, name: `${kind} ${id}`, content, created_at: '2026-03-01T10:00:00.000Z', ...extra };
}

export function candidates(): BriefingMemory[] {
  return [
    memory('obs-1', 'observation', 'The nightly import ran 40 minutes late twice this week.', {
      score: 0.4,
      created_at: '2026-03-04T08:00:00.000Z',
    }),
    memory('dec-1', 'decision', 'Use Neo4j 5.26 for the graph store.', {
      score: 0.9,
      created_at: '2026-01-10T09:00:00.000Z',
      date_observed: '2026-01-09',
    }),
    memory('les-1', 'lesson', 'Apply schema constraints before loading data.', {
      score: 0.8,
      created_at: '2026-02-02T09:00:00.000Z',
    }),
    memory('pre-1', 'preference', 'The team prefers *small* pull requests.', {
      score: 0.7,
      created_at: '2026-02-05T09:00:00.000Z',
    }),
    memory('fac-1', 'fact', 'Temporal runs on port 7233.', { score: 0.6, created_at: '2026-02-20T09:00:00.000Z' }),
    memory('sig-1', 'signal', 'Import latency is rising week on week.', {
      score: 0.5,
      created_at: '2026-03-03T09:00:00.000Z',
    }),
  ];
}

export function briefingInput(overrides: Partial<BriefingInput> = {}): BriefingInput {
  return {
    query: 'How do we run the graph store?',
    projectId: 'proj-briefing',
    candidates: candidates(),
    now: new Date('2026-03-05T12:00:00.000Z'),
    ...overrides,
  };
}
