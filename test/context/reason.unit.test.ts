import assert from 'node:assert/strict';
import { reasonOf } from '../../src/context/compile.js';
import type { Candidate } from '../../src/context/candidates.js';

const candidate = (sources: Candidate['sources']): Candidate => ({
  id: 'm1',
  plane: 'memory',
  type: 'memory',
  label: 'Memory',
  name: 'n',
  text: 't',
  created_at: '2026-11-27T00:00:00.000Z',
  kind: 'fact',
  date: null,
  chunk_index: null,
  hops: null,
  sources,
  exact: [],
});

describe('Context pack reasons (pure)', () => {
  it('a word hit that weighs nothing says it holds few of the query words; one that counts says it matches', () => {
    assert.equal(
      reasonOf(
        candidate([
          { source: 'query', rank: 3, weight: 0 },
          { source: 'meaning', rank: 1, similarity: 0.8712 },
        ]),
      ),
      "few of the query's words (#3); close in meaning (#1, similarity 0.871)",
    );
    assert.equal(reasonOf(candidate([{ source: 'query', rank: 2, weight: 0.75 }])), 'matches the query (#2)');
    assert.equal(reasonOf(candidate([{ source: 'query', rank: 1 }])), 'matches the query (#1)', 'lexical: no weight');
  });
});
