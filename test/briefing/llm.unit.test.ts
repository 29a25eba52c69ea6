import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinBriefingWriter } from '../../src/briefing/builtin.js';
import { LlmBriefingWriter, LlmEndpointError } from '../../src/briefing/llm.js';
import { briefingInput } from './fixtures.js';

interface SeenRequest {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  body: { model: string; temperature: number; messages: { role: string; content: string }[] };
}

type Reply = (res: http.ServerResponse) => void;

/** A local stand-in for an OpenAI-compatible endpoint that records what it was sent. */
async function standIn(reply: Reply): Promise<{ baseUrl: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        body: JSON.parse(raw) as SeenRequest['body'],
      });
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function chatReply(content: string): Reply {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      }),
    );
  };
}

const REPLY =
  '# Situation briefing: graph store\n\nOne **decision** and more.\n\n## Decisions\n\n- Use Neo4j 5.26 for the graph store. (2026-01-09)\n\n## What to do next\n\n- Follow [the decision](https://x.test).';

describe('LLM briefing writer', () => {
  let endpoint: Awaited<ReturnType<typeof standIn>> | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  it('sends the model, temperature 0, the key and the selected evidence, and returns the reply as markdown and text', async () => {
    endpoint = await standIn(chatReply(REPLY));
    const writer = new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, apiKey: 'sk-test', model: 'test-model-1' });
    const briefing = await writer.write(briefingInput({ maxEvidence: 4 }));

    assert.equal(endpoint.seen.length, 1);
    const [request] = endpoint.seen;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/v1/chat/completions');
    assert.equal(request?.authorization, 'Bearer sk-test');
    assert.equal(request?.body.model, 'test-model-1');
    assert.equal(request?.body.temperature, 0);
    const user = request?.body.messages.find((m) => m.role === 'user');
    const sent = JSON.parse(user?.content ?? '{}') as {
      query: string;
      evidence: { id: string; content: string; kind: string; date: string }[];
    };
    assert.equal(sent.query, 'How do we run the graph store?');
    assert.deepEqual(
      sent.evidence.map((e) => e.id),
      ['dec-1', 'les-1', 'pre-1', 'fac-1'],
    );
    assert.deepEqual(sent.evidence[0], {
      id: 'dec-1',
      kind: 'decision',
      name: 'decision dec-1',
      content: 'Use Neo4j 5.26 for the graph store.',
      date: '2026-01-09',
      subject: null,
      object: null,
    });

    assert.equal(briefing.markdown, REPLY);
    assert.equal(
      briefing.text,
      'Situation briefing: graph store\n\nOne decision and more.\n\nDecisions\n\nUse Neo4j 5.26 for the graph store. (2026-01-09)\n\nWhat to do next\n\nFollow the decision.',
    );
    assert.equal(briefing.model, 'test-model-1');
    assert.equal(writer.model, 'test-model-1');
    assert.equal(briefing.format, 'markdown');
    assert.equal(briefing.persisted, false);
    assert.deepEqual(briefing.sources, []);
    assert.equal(briefing.spec.generated_at, '2026-03-05T12:00:00.000Z');
  });

  it('selects and hashes the evidence exactly as the built-in writer does', async () => {
    endpoint = await standIn(chatReply(REPLY));
    const input = briefingInput({ maxEvidence: 4 });
    const viaLlm = await new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm' }).write(input);
    const builtin = await new BuiltinBriefingWriter().write(input);
    assert.deepEqual(viaLlm.spec, builtin.spec);
  });

  it('sends no Authorization header without a key, and tolerates a trailing slash on the base URL', async () => {
    endpoint = await standIn(chatReply(REPLY));
    await new LlmBriefingWriter({ baseUrl: `${endpoint.baseUrl}/`, model: 'm' }).write(briefingInput());
    assert.equal(endpoint.seen[0]?.authorization, undefined);
    assert.equal(endpoint.seen[0]?.url, '/v1/chat/completions');
  });

  it('unwraps a reply the model fenced as a markdown code block', async () => {
    endpoint = await standIn(chatReply('```markdown\n# Situation briefing: q\n\nBody.\n```'));
    const briefing = await new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm' }).write(briefingInput());
    assert.equal(briefing.markdown, '# Situation briefing: q\n\nBody.');
  });

  it('an endpoint answering 500 makes the write fail with an LLM endpoint error', async () => {
    endpoint = await standIn((res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"boom"}');
    });
    const writer = new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm' });
    await assert.rejects(
      writer.write(briefingInput()),
      (error: unknown) =>
        error instanceof LlmEndpointError &&
        error.status === 500 &&
        /^LLM endpoint failed: HTTP 500/.test(error.message),
    );
  });

  it('a reply without message content makes the write fail', async () => {
    endpoint = await standIn((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices":[]}');
    });
    await assert.rejects(
      new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm' }).write(briefingInput()),
      /LLM endpoint failed: the reply has no message content/,
    );
  });

  it('an endpoint that does not answer in time makes the write fail after the timeout', async () => {
    endpoint = await standIn(() => {
      /* never answers */
    });
    const started = Date.now();
    await assert.rejects(
      new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm', timeoutMs: 150 }).write(briefingInput()),
      /LLM endpoint failed: no reply within 150 ms/,
    );
    assert.ok(Date.now() - started < 5000);
  });

  it('an unreachable endpoint makes the write fail', async () => {
    endpoint = await standIn(chatReply(REPLY));
    const { baseUrl } = endpoint;
    await endpoint.close();
    endpoint = undefined;
    await assert.rejects(new LlmBriefingWriter({ baseUrl, model: 'm' }).write(briefingInput()), LlmEndpointError);
  });

  it('with no evidence, does not call the model and says no memories matched', async () => {
    endpoint = await standIn(chatReply(REPLY));
    const briefing = await new LlmBriefingWriter({ baseUrl: endpoint.baseUrl, model: 'm' }).write(
      briefingInput({ candidates: [] }),
    );
    assert.equal(endpoint.seen.length, 0);
    assert.deepEqual(briefing.spec.selected_memory_ids, []);
    assert.match(briefing.text, /No memories matched this query/);
    assert.equal(briefing.model, 'gks-briefing-builtin/1');
  });
});
