// One MCP server per session: lists and runs the tools the session's key has the scope for.
// A tool runs its HTTP route (same authentication, validation, services and error envelope);
// an API 4xx answers a tool error naming the field, never a protocol failure.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { RouteSpec } from '../http/route.js';
import type { Scope } from '../auth/scopes.js';
import { inputSchemaOf, TOOLS, type ToolDef } from './tools.js';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Sends one API request as the session's key. */
export type ApiCall = (method: string, path: string, body: Record<string, unknown> | undefined) => Promise<ApiAnswer>;

interface Tool {
  def: ToolDef;
  route: RouteSpec;
  inputSchema: Record<string, unknown>;
}

export function toolsFor(routes: RouteSpec[], scopes: readonly string[]): Tool[] {
  const admin = scopes.includes('admin');
  const byId = new Map(routes.map((r) => [r.operationId, r]));
  const tools: Tool[] = [];
  for (const def of TOOLS) {
    const route = byId.get(def.operationId);
    if (!route) throw new Error(`MCP tool ${def.name}: no route ${def.operationId}`);
    if (route.scope && !admin && !scopes.includes(route.scope as Scope)) continue;
    tools.push({ def, route, inputSchema: inputSchemaOf(route) });
  }
  return tools;
}

/** The one-line text a model reads for a governed write. */
export function writeSummary(body: Record<string, unknown>): string {
  const id = typeof body.delta_id === 'string' ? body.delta_id : '(none)';
  const status = typeof body.status === 'string' ? body.status : 'unknown';
  if (status === 'staged') return `Staged for review as delta ${id}; not visible to recall until applied.`;
  if (status === 'applied') return `Applied as delta ${id}; visible to recall now.`;
  return `Delta ${id} is ${status}.`;
}

function errorText(body: Record<string, unknown>): string {
  const err = (body.error ?? {}) as { code?: string; message?: string; details?: { fields?: unknown } };
  const fields = Array.isArray(err.details?.fields)
    ? (err.details.fields as { field?: string; reason?: string }[]).map((f) =>
        `${f.field ?? '?'} ${f.reason ?? ''}`.trim(),
      )
    : [];
  return `${err.code ?? 'error'}: ${err.message ?? 'request failed'}${fields.length ? ` (${fields.join('; ')})` : ''}`;
}

/** Fills :params of the route path from the arguments; the rest go to query (GET/DELETE) or body. */
function requestOf(route: RouteSpec, args: Record<string, unknown>): { path: string; body?: Record<string, unknown> } {
  const rest = { ...args };
  const path = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(typeof value === 'string' ? value : '');
  });
  if (route.method === 'get' || route.method === 'delete') {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(rest)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) v.forEach((x) => qs.append(k, String(x)));
      else qs.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean));
    }
    const q = qs.toString();
    return { path: q ? `${path}?${q}` : path };
  }
  return { path, body: rest };
}

export function createMcpServer(routes: RouteSpec[], scopes: readonly string[], call: ApiCall): Server {
  const tools = toolsFor(routes, scopes);
  const byName = new Map(tools.map((t) => [t.def.name, t]));
  const server = new Server({ name: 'gks', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.def.name,
      description: t.def.description,
      inputSchema: t.inputSchema as { type: 'object'; properties?: Record<string, object> },
      annotations: t.def.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    // Unknown tools and tools outside the key's scopes are the protocol's error.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const { path, body } = requestOf(tool.route, args);
    const answer = await call(tool.route.method.toUpperCase(), path, body);
    const { request_id: _requestId, ...content } = answer.body;
    if (answer.status >= 400) {
      return { isError: true, content: [{ type: 'text', text: errorText(answer.body) }], structuredContent: content };
    }
    const text = tool.def.write ? writeSummary(content) : JSON.stringify(content);
    return { content: [{ type: 'text', text }], structuredContent: content };
  });
  return server;
}
