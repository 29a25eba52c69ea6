import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinExtractor, LlmExtractor } from '../../src/extractor/index.js';
import { evaluate, loadGoldSet, pooledCorrelation } from './eval/score.js';
import { customShape, generalShape } from './eval/shape.js';

const gold = loadGoldSet();

describe('extraction on the committed evaluation set', function () {
  this.timeout(120_000);

  it('the set has at least 60 paragraphs, half of them with fictional names, and empty ones', () => {
    assert.ok(gold.length >= 60);
    assert.ok(gold.filter((p) => p.id.startsWith('f')).length >= 30);
    assert.ok(gold.filter((p) => p.text.trim() === '').length >= 2);
  });

  it('the built-in extractor reaches entity F1 0.85 and relation F1 0.6, reads nothing negated and keeps cardinality, in bounded time', async () => {
    const started = Date.now();
    for (const effort of ['agentic', 'agentic_plus'] as const) {
      const result = await evaluate(new BuiltinExtractor(), gold, { effort }, generalShape);
      const entities = result.entities.overall;
      const relations = result.relations.overall;
      assert.ok(entities && entities.f1 >= 0.85, `${effort} entity F1 ${entities?.f1}`);
      assert.ok(relations && relations.f1 >= 0.6, `${effort} relation F1 ${relations?.f1}`);
      assert.equal(result.negatedRelations, 0);
      assert.equal(result.cardinalityViolations, 0);
    }
    assert.ok(Date.now() - started < 90_000, `took ${Date.now() - started} ms`);
  });

  it('the loop quality correlates positively with the measured F1', async () => {
    const runs = [
      await evaluate(new BuiltinExtractor(), gold, { effort: 'agentic' }, generalShape),
      await evaluate(new BuiltinExtractor(), gold, { effort: 'agentic' }, customShape),
    ];
    for (const run of runs) assert.ok(run.qualityCorrelation > 0, `correlation ${run.qualityCorrelation}`);
    assert.ok(pooledCorrelation(runs) > 0.3, `pooled ${pooledCorrelation(runs)}`);
    // A paragraph with nothing to extract is a finished extraction, not a failed one.
    for (const id of ['r09', 'f08', 'f09']) assert.equal(runs[0]?.paragraphs.find((p) => p.id === id)?.quality, 1, id);
  });

  it('scores the LLM extractor through the same path (a stand-in answering with the gold labels scores 1)', async () => {
    const byText = new Map(gold.map((p) => [p.text, p]));
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        const messages = (JSON.parse(raw) as { messages: { content: string }[] }).messages;
        const p = byText.get(messages[1]?.content ?? '');
        const content = JSON.stringify({
          entities: (p?.entities ?? []).map(([type, name]) => ({ type, name, properties: {} })),
          relationships: (p?.relations ?? []).map(([type, from, to]) => ({ type, from, to, evidence: p?.text })),
        });
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { content } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const result = await evaluate(
        new LlmExtractor({ baseUrl, model: 'oracle' }),
        gold,
        { effort: 'agentic' },
        generalShape,
      );
      assert.equal(result.entities.overall?.f1, 1);
      assert.equal(result.relations.overall?.f1, 1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
