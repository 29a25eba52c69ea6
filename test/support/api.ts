// A small HTTP client for tests, and tenants: each test works in its own organization and project
// with its own key, so tests never see each other's data.
import { issueKey } from '../../src/auth/keys.js';
import type { Scope } from '../../src/auth/scopes.js';
import { grantCredits } from '../../src/credits/service.js';
import { createOrganization, createProject } from '../../src/tenancy/service.js';
import { harness } from './harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  key?: string | null;
  headers?: Record<string, string>;
  raw?: string | Buffer;
  contentType?: string;
}

export async function call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let payload: string | Buffer | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
    headers['Content-Type'] = options.contentType ?? 'application/json';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(`${harness().url}${path}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: typeof payload === 'string' ? payload : new Uint8Array(payload) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* non-JSON bodies are returned as text */
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface Tenant {
  organizationId: string;
  projectId: string;
  /** Project-scoped key with every scope. */
  key: string;
  keyId: string;
  get(path: string, options?: CallOptions): Promise<Reply>;
  post(path: string, body?: unknown, options?: CallOptions): Promise<Reply>;
  keyWith(options: { scopes?: Scope[]; organization?: boolean; writes?: 'apply' | 'stage' }): Promise<string>;
}

export async function newTenant(credits = 1000): Promise<Tenant> {
  const graph = harness().service.deps.graph;
  const org = await createOrganization(graph, `test org ${Date.now()}`);
  const project = await createProject(graph, String(org.id), 'test project');
  const key = await issueKey(graph, { organizationId: String(org.id), projectId: String(project.id), name: 'test' });
  if (credits > 0) await grantCredits(graph, String(org.id), credits, 'test grant');
  return {
    organizationId: String(org.id),
    projectId: String(project.id),
    key: key.key,
    keyId: key.id,
    get: (path, options) => call('GET', path, undefined, { key: key.key, ...options }),
    post: (path, body, options) => call('POST', path, body, { key: key.key, ...options }),
    async keyWith({ scopes, organization, writes }) {
      const issued = await issueKey(graph, {
        organizationId: String(org.id),
        projectId: organization ? null : String(project.id),
        ...(scopes ? { scopes } : {}),
        ...(writes ? { writes } : {}),
      });
      return issued.key;
    },
  };
}
