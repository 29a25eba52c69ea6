// A briefing written by the configured LLM spends a paid service: it is charged to the organization
// (refunded when the LLM fails, refused with 402 when credits are short); the built-in writer is free.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const BRIEFING = '# Situation briefing\n\nPayroll runs through Acme Payroll.';

describe('LLM briefings are charged like loops', function () {
  this.timeout(120_000);
  let llm: http.Server;
  let llmCalls = 0;
  let llmFails = false;
  let api: http.Server;
  let apiUrl = '';

  before(async () => {
    llm = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        llmCalls += 1;
        if (llmFails) {
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"down"}');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: BRIEFING } }] }));
      });
    });
    await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
    const base = harness().service.deps;
    const deps = {
      ...base,
      config: { ...base.config, llm: { ...base.config.llm, baseUrl, model: 'stand-in-model', briefingCredits: 2 } },
    };
    api = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(async () => {
    api.closeAllConnections();
    llm.closeAllConnections();
    await new Promise((r) => api.close(r));
    await new Promise((r) => llm.close(r));
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
  async function call(t: Tenant, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${apiUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  }

  async function tenantWithMemory(credits: number): Promise<Tenant> {
    const t = await newTenant(credits);
    const created = await t.post('/v1/memories', {
      kind: 'fact',
      content: 'Salaries are paid by Acme Payroll every month.',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return t;
  }

  it('synthesize by the LLM charges LLM_BRIEFING_CREDITS, shown in the ledger of the project', async () => {
    const t = await tenantWithMemory(5);
    const reply = await call(t, '/v1/memories/synthesize', { query: 'who pays salaries?' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const credits = await call(t, '/v1/credits');
    assert.equal(credits.body.balance, 3);
    assert.equal(credits.body.entries[0].kind, 'charge');
    assert.equal(credits.body.entries[0].amount, -2);
  });

  it('context brief by the LLM is charged too', async () => {
    const t = await tenantWithMemory(5);
    const reply = await call(t, '/v1/context/brief', { slice: { planes: ['memory'] }, query: 'who pays salaries?' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal((await call(t, '/v1/credits')).body.balance, 3);
  });

  it('an LLM that fails costs nothing: the charge is refunded and the answer is 502 upstream_error', async () => {
    const t = await tenantWithMemory(5);
    llmFails = true;
    try {
      const reply = await call(t, '/v1/memories/synthesize', { query: 'who pays salaries?' });
      assert.equal(reply.status, 502, JSON.stringify(reply.body));
      assert.equal(reply.body.error.code, 'upstream_error');
    } finally {
      llmFails = false;
    }
    const credits = await call(t, '/v1/credits');
    assert.equal(credits.body.balance, 5);
    assert.deepEqual(
      credits.body.entries.slice(0, 2).map((e: { kind: string }) => e.kind),
      ['refund', 'charge'],
    );
  });

  it('without the credits the LLM is not called: 402 credits_exhausted', async () => {
    const t = await tenantWithMemory(1);
    const before = llmCalls;
    const reply = await call(t, '/v1/memories/synthesize', { query: 'who pays salaries?' });
    assert.equal(reply.status, 402, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'credits_exhausted');
    assert.equal(llmCalls, before);
    assert.equal((await call(t, '/v1/credits')).body.balance, 1);
  });

  it('the built-in writer costs nothing', async () => {
    const t = await tenantWithMemory(1);
    const reply = await t.post('/v1/memories/synthesize', { query: 'who pays salaries?' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal((await t.get('/v1/credits')).body.balance, 1);
  });
});
