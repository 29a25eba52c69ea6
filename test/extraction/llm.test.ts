import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExtractor, LlmExtractionError, LlmExtractor, BuiltinExtractor } from '../../src/extraction/index.js';
import { generalShape } from './fixtures.js';

interface Seen { url: string; authorization: string | undefined; body: Record<string, unknown> }

/** A stand-in chat completions endpoint on 127.0.0.1 answering with whatever `reply` returns. */
async function standIn(reply: () => { status: number; body: string } | undefined): Promise<{ baseUrl: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) as Record<string, unknown> });
      const answer = reply();
      if (!answer) return; // never answers: for the timeout test
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return { baseUrl: `http://127.0.0.1:${port}/v1/`, seen, close };
}

const completion = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }) });
const text = 'Ada Lovelace works for Analytical Engines Ltd. in London.';

describe('LLM extractor', () => {
  it('sends the shape to the chat completions endpoint and reads its entities and relationships', async () => {
    const content = JSON.stringify({
      entities: [
        { name: 'Ada Lovelace', type: 'Person', properties: { name: 'Ada Lovelace', born: 1815, nested: { no: 1 } } },
        { name: 'Analytical Engines Ltd.', type: 'Organization', properties: {} },
        { name: 'London', type: 'Spaceport', properties: {} },
      ],
      relationships: [
        { type: 'WORKS_FOR', from: 'Ada Lovelace', to: 'Analytical Engines Ltd', evidence: 'Ada Lovelace works for Analytical Engines Ltd.' },
        { type: 'ORBITS', from: 'Ada Lovelace', to: 'London', evidence: '' },
      ],
    });
    const server = await standIn(() => completion(content));
    try {
      const extractor = new LlmExtractor({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'test-model' });
      const result = await extractor.extract(text, generalShape, { effort: 'agentic' });
      assert.equal(server.seen[0]?.url, '/v1/chat/completions');
      assert.equal(server.seen[0]?.authorization, 'Bearer sk-test');
      const body = server.seen[0]?.body ?? {};
      assert.equal(body.model, 'test-model');
      assert.equal(body.temperature, 0);
      assert.deepEqual(body.response_format, { type: 'json_object' });
      assert.match(JSON.stringify(body.messages), /WORKS_FOR: Person -> Organization/);

      assert.deepEqual(result.entities.map((e) => e.key), ['Person:ada lovelace', 'Organization:analytical engines ltd']);
      assert.deepEqual(result.entities[0]?.properties, { name: 'Ada Lovelace', born: 1815 });
      assert.deepEqual(result.entities[0]?.mentions, [{ start: 0, end: 12, text: 'Ada Lovelace' }]);
      assert.deepEqual(result.relationships, [
        { type: 'WORKS_FOR', from_key: 'Person:ada lovelace', to_key: 'Organization:analytical engines ltd', evidence: 'Ada Lovelace works for Analytical Engines Ltd.', confidence: 0.7 },
      ]);
      assert.deepEqual(result.stats, { characters: text.length, sentences: 1 });
    } finally {
      await server.close();
    }
  });

  for (const [what, reply, message] of [
    ['content that is not JSON', completion('Sure! Here are the entities: Ada.'), /not JSON/],
    ['JSON without an entities array', completion('{"people":[]}'), /no "entities" array/],
    ['an answer without choices', { status: 200, body: '{"id":"x"}' }, /choices\[0\]\.message\.content/],
    ['an HTTP error', { status: 500, body: 'upstream exploded' }, /^LLM endpoint failed: HTTP 500$/],
  ] as const) {
    it(`a malformed reply (${what}) is an error saying what was wrong`, async () => {
      const server = await standIn(() => reply);
      try {
        await assert.rejects(new LlmExtractor({ baseUrl: server.baseUrl, model: 'm' }).extract(text, generalShape, { effort: 'agentic' }), (e: unknown) => e instanceof LlmExtractionError && message.test(e.message));
        assert.equal(server.seen[0]?.authorization, undefined);
      } finally {
        await server.close();
      }
    });
  }

  it('an endpoint that does not answer in time is an error, not a hang', async () => {
    const server = await standIn(() => undefined);
    try {
      await assert.rejects(new LlmExtractor({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200 }).extract(text, generalShape, { effort: 'agentic' }), /within 200 ms/);
    } finally {
      await server.close();
    }
  });
});

describe('extractor choice', () => {
  it('the built-in extractor is the default', () => {
    const extractor = createExtractor({ model: 'm' });
    assert.ok(extractor instanceof BuiltinExtractor);
    assert.equal(extractor.name, 'builtin-nlp/1');
  });

  it('the LLM extractor needs a base URL', () => {
    assert.throws(() => createExtractor({ model: 'm' }, 'llm'), /base URL/);
    assert.equal(createExtractor({ model: 'gpt-x', baseUrl: 'http://127.0.0.1:9' }, 'llm').name, 'llm/gpt-x');
  });
});
