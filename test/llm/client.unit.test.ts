// The shared LLM client against a stand-in OpenAI-compatible endpoint on 127.0.0.1: retries, the
// timeout, no Authorization header without a key, and error messages that never carry the endpoint's
// own text (that stays in `detail`, for logs).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmCallError, LlmClient } from '../../src/llm/client.js';

type Answer = { status: number; body: string } | undefined;

async function standIn(
  answers: Answer[],
): Promise<{ baseUrl: string; requests: http.IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(req.headers);
      const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
      if (answer) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close };
}

const ok = (content: string) => ({
  status: 200,
  body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }),
});
const ask = [{ role: 'user' as const, content: 'hello' }];

describe('LLM client (openai package, any OpenAI-compatible endpoint)', () => {
  it('retries a 503 and returns the content of the answer that follows', async () => {
    const server = await standIn([{ status: 503, body: '{"error":{"message":"overloaded"}}' }, ok('hi there')]);
    try {
      const client = new LlmClient({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'm' });
      assert.equal(await client.complete(ask), 'hi there');
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[0]?.authorization, 'Bearer sk-test');
    } finally {
      await server.close();
    }
  });

  it('an HTTP error names the status only; the endpoint text stays in detail', async () => {
    const server = await standIn([
      { status: 500, body: '{"error":{"message":"secret stack trace at db.internal:5432"}}' },
    ]);
    try {
      const client = new LlmClient({ baseUrl: server.baseUrl, model: 'm', maxRetries: 1 });
      const error = await client.complete(ask).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof LlmCallError);
      assert.equal(error.message, 'HTTP 500');
      assert.equal(error.status, 500);
      assert.match(error.detail ?? '', /secret stack trace/);
      assert.equal(server.requests.length, 2, 'one retry');
      assert.equal(server.requests[0]?.authorization, undefined, 'no key, no Authorization header');
    } finally {
      await server.close();
    }
  });

  it('a 400 is not retried', async () => {
    const server = await standIn([{ status: 400, body: '{"error":{"message":"bad model"}}' }]);
    try {
      await assert.rejects(
        new LlmClient({ baseUrl: server.baseUrl, model: 'm' }).complete(ask),
        /^LlmCallError: HTTP 400$/,
      );
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('an endpoint that does not answer fails after the timeout of each attempt', async () => {
    const server = await standIn([undefined]);
    try {
      const started = Date.now();
      await assert.rejects(
        new LlmClient({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 150, maxRetries: 0 }).complete(ask),
        /no reply within 150 ms/,
      );
      assert.ok(Date.now() - started < 3000);
    } finally {
      await server.close();
    }
  });

  it('an empty answer and an unreachable endpoint are errors of their own kind', async () => {
    const server = await standIn([{ status: 200, body: '{"choices":[]}' }]);
    const { baseUrl } = server;
    try {
      await assert.rejects(new LlmClient({ baseUrl, model: 'm' }).complete(ask), /no message content/);
    } finally {
      await server.close();
    }
    await assert.rejects(
      new LlmClient({ baseUrl, model: 'm', maxRetries: 0 }).complete(ask),
      /^LlmCallError: the endpoint is unreachable$/,
    );
  });
});
