import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors/catalogue.js';
import { loadDocumentChunks, markExtractionFinished, markExtractionStarted } from '../../src/documents/service.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const graph = () => harness().service.deps.graph;
const notFound = (e: unknown) => e instanceof ApiError && e.code === 'not_found';

async function indexed(content: string) {
  const t = await newTenant(0);
  const reply = await t.post('/v1/documents', { content });
  return {
    t,
    id: reply.body.id as string,
    read: async () => (await t.get(`/v1/documents/${reply.body.id}`)).body.source,
  };
}

const longText = Array.from(
  { length: 40 },
  (_, i) => `Sentence ${i} describes lighthouse ${i} on the rocky coast of the northern sea.`,
).join(' ');

describe('document extraction lifecycle (functions loop activities call)', () => {
  it('loadDocumentChunks returns the committed document and its chunks in order', async () => {
    const { t, id } = await indexed(longText);
    const loaded = await loadDocumentChunks(graph(), t.projectId, id);
    assert.equal(loaded.document.id, id);
    assert.equal(loaded.document.projectId, t.projectId);
    assert.equal(loaded.document.type, 'text');
    assert.equal(loaded.document.stage, 'indexed');
    assert.equal(loaded.document.charCount, longText.length);
    assert.match(loaded.document.contentHash, /^[0-9a-f]{64}$/);
    assert.ok(loaded.chunks.length >= 3);
    assert.deepEqual(
      loaded.chunks.map((c) => c.index),
      loaded.chunks.map((_, i) => i),
    );
    assert.ok(loaded.chunks[0]!.text.startsWith('Sentence 0 describes'));
    assert.ok(loaded.chunks[loaded.chunks.length - 1]!.text.endsWith('northern sea.'));
    const other = await newTenant(0);
    await assert.rejects(loadDocumentChunks(graph(), other.projectId, id), notFound);
  });

  it('started: stage extracting and processing; finished: stage extracted with counts and shape name', async () => {
    const { t, id, read } = await indexed('Ada Lovelace worked with Charles Babbage.');
    const before = await read();
    await markExtractionStarted(graph(), t.projectId, id);
    const running = await read();
    assert.deepEqual(running.status, { stage: 'extracting', processing: true, pendingReview: false, outdated: false });
    assert.ok(running.updatedAt > before.updatedAt);
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'general', tokenCount: 120, charCount: 41 });
    const done = await read();
    assert.deepEqual(done.status, { stage: 'extracted', processing: false, pendingReview: false, outdated: false });
    assert.equal(done.extractionCount, 1);
    assert.equal(done.lastExtractionShape, 'general');
    assert.equal(done.extractedTokenCount, 120);
    assert.equal(done.extractedCharCount, 41);
    assert.equal((await t.get('/v1/documents')).body.sources[0].extractionCount, 1);
    await markExtractionStarted(graph(), t.projectId, id);
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'memory', tokenCount: 10, charCount: 5 });
    const again = await read();
    assert.equal(again.extractionCount, 2);
    assert.equal(again.lastExtractionShape, 'memory');
  });

  it('a failed extraction sets stage failed and keeps the counts of the last success', async () => {
    const { t, id, read } = await indexed('Grace Hopper built compilers.');
    await markExtractionStarted(graph(), t.projectId, id);
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'general', tokenCount: 50, charCount: 29 });
    await markExtractionStarted(graph(), t.projectId, id);
    await markExtractionFinished(graph(), t.projectId, id, {
      shapeName: 'other',
      tokenCount: 0,
      charCount: 0,
      failed: 'model unavailable',
    });
    const s = await read();
    assert.deepEqual(s.status, { stage: 'failed', processing: false, pendingReview: false, outdated: false });
    assert.equal(s.extractionCount, 1);
    assert.equal(s.lastExtractionShape, 'general');
    assert.equal(s.extractedTokenCount, 50);
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (d:Document {id: $id}) RETURN d.extraction_error AS error', { id }),
    );
    assert.equal(row!.error, 'model unavailable');
  });

  it('outdated once the text changes after the last extraction, until it is extracted again', async () => {
    const { t, id, read } = await indexed('Version one of the text.');
    assert.equal((await read()).status.outdated, false, 'never extracted: not outdated');
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'general', tokenCount: 6, charCount: 24 });
    assert.equal((await read()).status.outdated, false);
    // What a re-index of changed text records: a new content hash.
    await graph().write((tx) => tx.runText("MATCH (d:Document {id: $id}) SET d.content_hash = 'changed'", { id }));
    assert.equal((await read()).status.outdated, true);
    assert.equal((await t.get('/v1/documents')).body.sources[0].status.outdated, true);
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'general', tokenCount: 6, charCount: 24 });
    assert.equal((await read()).status.outdated, false);
  });

  it('marks refuse documents of another project or unknown ones', async () => {
    const { id } = await indexed('Mine.');
    const other = await newTenant(0);
    await assert.rejects(markExtractionStarted(graph(), other.projectId, id), notFound);
    await assert.rejects(
      markExtractionFinished(graph(), other.projectId, id, { shapeName: 'x', tokenCount: 0, charCount: 0 }),
      notFound,
    );
    await assert.rejects(
      markExtractionStarted(graph(), other.projectId, '00000000-0000-4000-8000-000000000000'),
      notFound,
    );
  });
});
