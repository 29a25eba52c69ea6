// Helpers of the document tests: multipart uploads, a local HTTP server standing in for remote
// pages, and a second API instance built with different fetch settings.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import type { Config } from '../../src/config/config.js';
import type { Reply, Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface UploadOptions {
  filename: string;
  data: Buffer | string;
  type?: string;
  fields?: Record<string, string>;
  key?: string;
  baseUrl?: string;
}

/** POST /v1/documents as multipart/form-data with one file part. */
export async function upload(t: Tenant, options: UploadOptions): Promise<Reply> {
  const form = new FormData();
  const bytes = typeof options.data === 'string' ? Buffer.from(options.data, 'utf8') : options.data;
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }),
    options.filename,
  );
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  const response = await fetch(`${options.baseUrl ?? harness().url}/v1/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${options.key ?? t.key}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export interface Server {
  url: string;
  close(): Promise<void>;
}

export async function serve(handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The same API with other fetch settings (private addresses, size cap), on its own port. */
export async function apiWithFetch(fetchConfig: Partial<Config['fetch']>): Promise<Server> {
  const base = harness().service.deps;
  const deps = { ...base, config: { ...base.config, fetch: { ...base.config.fetch, ...fetchConfig } } };
  return serve(buildApp(deps, allRoutes(deps)).callback());
}

export async function postJson(baseUrl: string, key: string, path: string, body: unknown): Promise<Reply> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}
