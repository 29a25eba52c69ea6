import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { newTenant } from '../support/api.js';
import { captureLogs, harness } from '../support/harness.js';

/** Opens an MCP session over plain HTTP (initialize, then initialized) and answers its id. */
async function openSession(key: string): Promise<string> {
  const headers = {
    Authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const url = new URL('/mcp', harness().url);
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    }),
  });
  assert.equal(init.status, 200);
  const session = init.headers.get('mcp-session-id');
  assert.ok(session, 'the initialize answer names its session');
  await init.text();
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  assert.equal(initialized.status, 202);
  return session;
}

describe('a client that resets its connection', () => {
  it("is one structured log line with the request's id, not a stack trace on stderr, and the service answers on", async () => {
    const t = await newTenant(0);
    const session = await openSession(t.key);
    const logs = captureLogs();
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      stderr.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      // The session's event stream (GET /mcp) stays open until the client goes; this client resets it (RST).
      const { port } = new URL(harness().url);
      const socket = net.connect(Number(port), '127.0.0.1');
      const head = await new Promise<string>((resolve, reject) => {
        let got = '';
        socket.on('data', (c: Buffer) => {
          got += c.toString();
          if (got.includes('\r\n\r\n')) resolve(got);
        });
        socket.once('error', reject);
        socket.write(
          `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${t.key}\r\n` +
            `Accept: text/event-stream\r\nmcp-session-id: ${session}\r\nmcp-protocol-version: 2025-03-26\r\n\r\n`,
        );
      });
      assert.match(head, /^HTTP\/1\.1 200 /);
      assert.match(head, /content-type: text\/event-stream/i);
      const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
      assert.ok(requestId, 'the stream carries its request id');
      socket.resetAndDestroy();
      const deadline = Date.now() + 5_000;
      const gone = () => logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'client closed the connection');
      while (!gone() && Date.now() < deadline) await sleep(50);
      const line = gone();
      assert.ok(line, `logged: ${logs.lines.join('')}`);
      assert.equal(line.request_id, requestId);
      assert.equal(line.route, 'GET /mcp');
      assert.equal(line.code, 'ECONNRESET');
      assert.equal(line.level, 30);
      assert.ok(!stderr.some((s) => s.includes('ECONNRESET')), `stderr: ${stderr.join('')}`);
    } finally {
      process.stderr.write = write;
      logs.stop();
    }
    assert.equal((await t.get('/v1/project')).status, 200);
  });
});
