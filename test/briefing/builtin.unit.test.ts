import assert from 'node:assert/strict';
import { BuiltinBriefingWriter } from '../../src/briefing/builtin.js';
import { briefingHashes } from '../../src/briefing/hashes.js';
import type { Briefing } from '../../src/briefing/types.js';
import { briefingInput, candidates, memory } from './fixtures.js';

const writer = new BuiltinBriefingWriter();
const HEX64 = /^[0-9a-f]{64}$/;

function headings(briefing: Briefing): string[] {
  return briefing.markdown.split('\n').filter((line) => line.startsWith('#'));
}

describe('built-in briefing writer', () => {
  it('fills every spec field with the fixed values and the evidence', async () => {
    const briefing = await writer.write(briefingInput());
    assert.equal(briefing.format, 'markdown');
    assert.equal(briefing.project_id, 'proj-briefing');
    assert.deepEqual(briefing.sources, []);
    assert.equal(briefing.model, 'gks-briefing-builtin/1');
    assert.equal(writer.model, 'gks-briefing-builtin/1');
    assert.equal(briefing.persisted, false);
    assert.equal(briefing.spec.purpose, 'operational-briefing');
    assert.equal(briefing.spec.output_type, 'SituationBriefing');
    assert.equal(briefing.spec.query, 'How do we run the graph store?');
    assert.deepEqual(briefing.spec.selected_memory_ids, ['dec-1', 'les-1', 'pre-1', 'fac-1', 'sig-1', 'obs-1']);
    assert.equal(briefing.spec.generated_at, '2026-03-05T12:00:00.000Z');
    assert.ok(!Number.isNaN(Date.parse(briefing.spec.generated_at)));
    assert.equal(briefing.spec.candidate_count, 6);
    assert.ok(Number.isInteger(briefing.spec.candidate_count));
    assert.deepEqual(Object.keys(briefing.spec.hashes).sort(), ['denotative', 'operational', 'structural']);
    for (const digest of Object.values(briefing.spec.hashes)) assert.match(digest, HEX64);
    assert.equal(typeof briefing.text, 'string');
    assert.equal(typeof briefing.markdown, 'string');
  });

  it('the hashes in the spec are those of the selected evidence', async () => {
    const input = briefingInput({ maxEvidence: 4 });
    const briefing = await writer.write(input);
    const selected = candidates()
      .filter((m) => briefing.spec.selected_memory_ids.includes(m.id))
      .sort(
        (a, b) => briefing.spec.selected_memory_ids.indexOf(a.id) - briefing.spec.selected_memory_ids.indexOf(b.id),
      );
    assert.deepEqual(briefing.spec.hashes, briefingHashes(input.query, selected, 4));
  });

  it('puts sections in the order Decisions, Lessons, Preferences, Facts, Signals, Observations, then next steps', async () => {
    const briefing = await writer.write(briefingInput());
    assert.deepEqual(headings(briefing), [
      '# Situation briefing: How do we run the graph store?',
      '## Decisions',
      '## Lessons',
      '## Preferences',
      '## Facts',
      '## Signals',
      '## Observations',
      '## What to do next',
    ]);
  });

  it('leaves out sections that have no evidence', async () => {
    const briefing = await writer.write(
      briefingInput({
        candidates: [memory('o', 'observation', 'Disk at 80%.'), memory('d', 'decision', 'Add a disk.')],
      }),
    );
    assert.deepEqual(headings(briefing).slice(1), ['## Decisions', '## Observations', '## What to do next']);
  });

  it('lists each memory as a dated bullet, preferring the observed date', async () => {
    const { markdown } = await writer.write(briefingInput());
    assert.ok(markdown.includes('\n- Use Neo4j 5.26 for the graph store. (2026-01-09)\n'));
    assert.ok(markdown.includes('\n- Temporal runs on port 7233. (2026-02-20)\n'));
  });

  it('summarises counts per kind and the date range', async () => {
    const { markdown, text } = await writer.write(briefingInput());
    const summary =
      'Selected 6 memories from 6 candidates: 1 decision, 1 lesson, 1 preference, 1 fact, 1 signal and 1 observation, dated 2026-01-09 to 2026-03-04.';
    assert.ok(markdown.includes(`\n\n${summary}\n\n`));
    assert.ok(text.includes(`\n\n${summary}\n\n`));
  });

  it('derives next steps from the kinds present', async () => {
    const { markdown } = await writer.write(briefingInput());
    const next = markdown.slice(markdown.indexOf('## What to do next'));
    assert.match(next, /- Follow the decision already taken .*\. It reads: "Use Neo4j 5\.26 for the graph store"\.\n/);
    assert.match(next, /- Apply the lesson/);
    assert.match(next, /- Respect the preference/);
    assert.match(next, /- Treat the fact/);
    assert.match(next, /- Watch the signal/);
    assert.match(next, /- Confirm the observation/);
    const twoDecisions = await writer.write(
      briefingInput({
        candidates: [memory('a', 'decision', 'First.', { score: 2 }), memory('b', 'decision', 'Second.', { score: 1 })],
      }),
    );
    assert.match(twoDecisions.markdown, /- Follow the 2 decisions .*The most relevant reads: "First"\.\n/);
    const onlyFacts = await writer.write(briefingInput({ candidates: [memory('f', 'fact', 'x')] }));
    assert.doesNotMatch(onlyFacts.markdown, /Follow the|Apply the|Respect the|Watch the|Confirm the/);
  });

  it('writes the same briefing as plain prose without Markdown syntax', async () => {
    const { text } = await writer.write(briefingInput());
    assert.doesNotMatch(text, /^#|^- |\*|`|^##/m);
    assert.ok(text.startsWith('Situation briefing: How do we run the graph store?\n\n'));
    assert.ok(text.includes('Decisions: Use Neo4j 5.26 for the graph store (2026-01-09).'));
    assert.ok(text.includes('Preferences: The team prefers small pull requests (2026-02-05).'));
    assert.ok(text.includes('What to do next: Follow the decision already taken'));
    const order = [
      'Decisions:',
      'Lessons:',
      'Preferences:',
      'Facts:',
      'Signals:',
      'Observations:',
      'What to do next:',
    ].map((p) => text.indexOf(`\n\n${p}`));
    assert.ok(
      order.every((position, i) => position > 0 && (i === 0 || position > order[i - 1]!)),
      `paragraph order ${order.join(',')}`,
    );
  });

  it('the same query and evidence give identical hashes, markdown and text, whatever the candidate order or clock', async () => {
    const first = await writer.write(briefingInput());
    const second = await writer.write(
      briefingInput({ candidates: candidates().reverse(), now: new Date('2027-01-01T00:00:00.000Z') }),
    );
    assert.deepEqual(second.spec.hashes, first.spec.hashes);
    assert.equal(second.markdown, first.markdown);
    assert.equal(second.text, first.text);
    assert.notEqual(second.spec.generated_at, first.spec.generated_at);
  });

  it('a change to one selected memory content changes the denotative hash but not the structural one', async () => {
    const first = await writer.write(briefingInput());
    const edited = candidates().map((m) => (m.id === 'fac-1' ? { ...m, content: 'Temporal runs on port 7234.' } : m));
    const second = await writer.write(briefingInput({ candidates: edited }));
    assert.deepEqual(second.spec.selected_memory_ids, first.spec.selected_memory_ids);
    assert.notEqual(second.spec.hashes.denotative, first.spec.hashes.denotative);
    assert.equal(second.spec.hashes.structural, first.spec.hashes.structural);
    assert.equal(second.spec.hashes.operational, first.spec.hashes.operational);
  });

  it('a different query changes the operational hash', async () => {
    const first = await writer.write(briefingInput());
    const second = await writer.write(briefingInput({ query: 'What is slowing the import?' }));
    assert.notEqual(second.spec.hashes.operational, first.spec.hashes.operational);
    assert.equal(second.spec.hashes.structural, first.spec.hashes.structural);
    assert.equal(second.spec.hashes.denotative, first.spec.hashes.denotative);
  });

  it('honours maxEvidence and drops duplicate content from the evidence', async () => {
    const list = [...candidates(), memory('dup', 'decision', 'use neo4j 5.26   FOR the graph store.', { score: 0.1 })];
    const briefing = await writer.write(briefingInput({ candidates: list, maxEvidence: 3 }));
    assert.deepEqual(briefing.spec.selected_memory_ids, ['dec-1', 'les-1', 'pre-1']);
    assert.equal(briefing.spec.candidate_count, 7);
    const all = await writer.write(briefingInput({ candidates: list }));
    assert.ok(!all.spec.selected_memory_ids.includes('dup'));
  });

  it('with no evidence, says no memories matched and selects nothing', async () => {
    const briefing = await writer.write(briefingInput({ candidates: [] }));
    assert.deepEqual(briefing.spec.selected_memory_ids, []);
    assert.equal(briefing.spec.candidate_count, 0);
    assert.match(
      briefing.markdown,
      /^# Situation briefing: How do we run the graph store\?\n\nNo memories matched this query/,
    );
    assert.match(briefing.text, /No memories matched this query/);
    assert.doesNotMatch(briefing.text, /^#|^- /m);
    for (const digest of Object.values(briefing.spec.hashes)) assert.match(digest, HEX64);
    assert.deepEqual(headings(briefing).slice(1), ['## What to do next']);
  });
});
