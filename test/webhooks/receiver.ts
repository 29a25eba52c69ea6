// A local webhook receiver on 127.0.0.1 standing in for a customer's endpoint: it records every
// request and answers the status codes it is told to, in order (then 200).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer next, in order; 200 once they are used up. */
  answers: number[];
  /** Payloads of requests the secret verifies (throws on the first that does not). */
  verified(secret: string): { id: string; type: string; project_id: string; created_at: string; data: unknown }[];
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answers.shift() ?? 200;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8'), status, at: Date.now() });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answers,
    verified(secret) {
      const wh = new Webhook(secret);
      return received.map((r) => wh.verify(r.body, r.headers) as ReturnType<Receiver['verified']>[number]);
    },
    async waitFor(count, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until)
          throw new Error(`receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
