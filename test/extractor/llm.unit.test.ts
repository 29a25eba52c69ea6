import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExtractor, LlmExtractionError, LlmExtractor, BuiltinExtractor } from '../../src/extractor/index.js';
import { generalShape } from './fixtures.js';
import { generalShape as evalShape } from './eval/shape.js';
import { scoreExtraction } from '../../src/extractor/quality.js';

interface Seen {
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** A stand-in chat completions endpoint on 127.0.0.1 answering with whatever `reply` returns. */
async function standIn(
  reply: () => { status: number; body: string } | undefined,
): Promise<{ baseUrl: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      const answer = reply();
      if (!answer) return; // never answers: for the timeout test
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { baseUrl: `http://127.0.0.1:${port}/v1/`, seen, close };
}

const completion = (content: string) => ({
  status: 200,
  body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }),
});
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
        {
          type: 'WORKS_FOR',
          from: 'Ada Lovelace',
          to: 'Analytical Engines Ltd',
          evidence: 'Ada Lovelace works for Analytical Engines Ltd.',
        },
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

      assert.deepEqual(
        result.entities.map((e) => e.key),
        ['Person:ada lovelace', 'Organization:analytical engines ltd'],
      );
      // Only properties the shape declares survive (this Person has just a name).
      assert.deepEqual(result.entities[0]?.properties, { name: 'Ada Lovelace' });
      assert.deepEqual(result.entities[0]?.mentions, [{ start: 0, end: 12, text: 'Ada Lovelace' }]);
      assert.deepEqual(result.relationships, [
        {
          type: 'WORKS_FOR',
          from_key: 'Person:ada lovelace',
          to_key: 'Organization:analytical engines ltd',
          evidence: 'Ada Lovelace works for Analytical Engines Ltd.',
          confidence: 0.7,
        },
      ]);
      assert.deepEqual(
        { characters: result.stats.characters, sentences: result.stats.sentences },
        { characters: text.length, sentences: 1 },
      );
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
        await assert.rejects(
          new LlmExtractor({ baseUrl: server.baseUrl, model: 'm' }).extract(text, generalShape, { effort: 'agentic' }),
          (e: unknown) => e instanceof LlmExtractionError && message.test(e.message),
        );
        assert.equal(server.seen[0]?.authorization, undefined);
      } finally {
        await server.close();
      }
    });
  }

  it('an endpoint that does not answer in time is an error, not a hang', async () => {
    const server = await standIn(() => undefined);
    try {
      await assert.rejects(
        new LlmExtractor({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200 }).extract(text, generalShape, {
          effort: 'agentic',
        }),
        /within 200 ms/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('LLM extractor and the shape', () => {
  const para =
    'Mara Quell works for Lumenfold Inc., based in Harrowgate, Vellmark. She never worked for Bramwell & Ford.';

  it('prompts with every type, its properties with their types, and each relationship with its direction and cardinality', async () => {
    const server = await standIn(() => completion('{"entities":[],"relationships":[]}'));
    try {
      await new LlmExtractor({ baseUrl: server.baseUrl, model: 'm' }).extract(para, evalShape, { effort: 'agentic' });
      const system = String((server.seen[0]?.body.messages as { content: string }[])[0]?.content);
      assert.match(
        system,
        /- Place: A city, region, country, address or site\. Identified by name\. Properties: name \(string, required\), kind \(string, one of: city, region, country, address, site, other\)/,
      );
      assert.match(
        system,
        /LOCATED_IN: Organization -> Place \(many_to_one: each Organization has at most one Place\)/,
      );
      assert.match(system, /PARTICIPATED_IN: Person -> Event \(many_to_many: any number on both sides\)/);
      assert.match(system, /nothing from a negated or hypothetical statement/);
    } finally {
      await server.close();
    }
  });

  it('keeps only what fits the shape: declared properties of the declared type, endpoint types in direction, one target of a many-to-one', async () => {
    const content = JSON.stringify({
      entities: [
        { name: 'Mara Quell', type: 'Person', properties: { role: 'engineer', email: 42 } },
        { name: 'Lumenfold Inc.', type: 'Organization', properties: { founded_year: 2011.5, industry: 'robotics' } },
        { name: 'Harrowgate', type: 'Place', properties: { kind: 'town' } },
        { name: 'Vellmark', type: 'Place', properties: { kind: 'country' } },
        { name: 'Bramwell & Ford', type: 'Organization' },
      ],
      relationships: [
        { type: 'WORKS_FOR', from: 'Mara Quell', to: 'Lumenfold Inc.', confidence: 0.9 },
        { type: 'WORKS_FOR', from: 'Lumenfold Inc.', to: 'Mara Quell' },
        { type: 'LOCATED_IN', from: 'Lumenfold Inc.', to: 'Harrowgate', confidence: 0.9 },
        { type: 'LOCATED_IN', from: 'Lumenfold Inc.', to: 'Vellmark', confidence: 0.6 },
        { type: 'LOCATED_IN', from: 'Mara Quell', to: 'Harrowgate' },
      ],
    });
    const server = await standIn(() => completion(content));
    try {
      const result = await new LlmExtractor({ baseUrl: server.baseUrl, model: 'm' }).extract(para, evalShape, {
        effort: 'agentic',
      });
      const props = Object.fromEntries(result.entities.map((e) => [e.name, e.properties]));
      assert.deepEqual(props['Mara Quell'], { role: 'engineer', name: 'Mara Quell' });
      assert.deepEqual(props['Lumenfold Inc.'], { industry: 'robotics', name: 'Lumenfold Inc.' });
      assert.deepEqual(props.Harrowgate, { name: 'Harrowgate' });
      assert.deepEqual(props.Vellmark, { kind: 'country', name: 'Vellmark' });
      assert.deepEqual(
        result.relationships.map((r) => `${r.type} ${r.from_key} ${r.to_key}`),
        [
          'LOCATED_IN Organization:lumenfold inc Place:harrowgate',
          'WORKS_FOR Person:mara quell Organization:lumenfold inc',
        ],
      );
      assert.equal(scoreExtraction(result, evalShape).components.conformance, 1);
    } finally {
      await server.close();
    }
  });
});

describe('extractor choice', () => {
  it('the built-in extractor is the default', () => {
    const extractor = createExtractor({ model: 'm' });
    assert.ok(extractor instanceof BuiltinExtractor);
    assert.equal(extractor.name, 'builtin-nlp/2');
  });

  it('the LLM extractor needs a base URL', () => {
    assert.throws(() => createExtractor({ model: 'm' }, 'llm'), /base URL/);
    assert.equal(createExtractor({ model: 'gpt-x', baseUrl: 'http://127.0.0.1:9' }, 'llm').name, 'llm/gpt-x');
  });
});
