// One MCP server per session: lists and runs the tools the session's key has the scope for, and
// offers the resources and prompts of docs/mcp.md. A tool runs its /v1 route (same authentication,
// validation, services and error envelope); an API 4xx answers a tool error naming the field,
// never a protocol failure.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { RouteSpec } from '../http/route.js';
import { errorText, hasScope, type ApiAnswer, type ApiCall, type SessionInfo } from './call.js';
import { mcpToolCalls, mcpToolDuration } from '../ops/metrics.js';
import { inputSchemaOf, TOOLS, type ToolDef } from './tools.js';
import { registerPrompts, registerResources } from './resources.js';

interface Tool {
  def: ToolDef;
  route: RouteSpec;
  inputSchema: Record<string, unknown>;
}

export function toolsFor(routes: RouteSpec[], scopes: readonly string[]): Tool[] {
  const byId = new Map(routes.map((r) => [r.operationId, r]));
  const tools: Tool[] = [];
  for (const def of TOOLS) {
    const route = byId.get(def.operationId);
    if (!route) throw new Error(`MCP tool ${def.name}: no route ${def.operationId}`);
    if (!hasScope(scopes, route.scope)) continue;
    tools.push({ def, route, inputSchema: inputSchemaOf(route, def) });
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

function loopSummary(body: Record<string, unknown>): string {
  if (body.dry_run === true) return `Dry run only; nothing started. ${JSON.stringify(body.plan ?? {})}`;
  return (
    `Started loop ${String(body.loop_id)} (queued); its output stages as delta ${String(body.delta_id)} for review ` +
    'and is not applied by itself. Follow it with loop_status.'
  );
}

/** Fills :params of the route path from the arguments; the rest go to query (GET/DELETE) or body. */
export function requestOf(
  route: RouteSpec,
  args: Record<string, unknown>,
): { path: string; body?: Record<string, unknown> } {
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

/** loop_status: the loop's status, then its latest events (pages of its event list followed to the end). */
async function loopStatus(call: ApiCall, route: RouteSpec, args: Record<string, unknown>): Promise<ApiAnswer> {
  const { events: wanted, ...rest } = args;
  const count = typeof wanted === 'number' ? wanted : 10;
  if (typeof wanted !== 'undefined' && (!Number.isInteger(wanted) || count < 0 || count > 100)) {
    return {
      status: 400,
      body: {
        error: {
          code: 'invalid_request',
          message: 'events must be an integer from 0 to 100.',
          details: { fields: [{ field: '/events', reason: 'must be an integer from 0 to 100' }] },
        },
      },
    };
  }
  const status = await call('GET', requestOf(route, rest).path, undefined);
  if (status.status >= 400 || count === 0) return status;
  const loopId = encodeURIComponent(String(rest.loop_id));
  const project = typeof rest.project_id === 'string' ? `&project_id=${encodeURIComponent(rest.project_id)}` : '';
  let after = 0;
  let events: unknown[] = [];
  for (;;) {
    const page = await call(
      'GET',
      `/v1/loops/${loopId}/events?limit=1000&after_sequence=${after}${project}`,
      undefined,
    );
    // Events come from Temporal: while it is down the status (from the graph) is answered without them.
    if (page.status >= 400) return { status: 200, body: { ...status.body, events: [], events_error: page.body.error } };
    events = events.concat((page.body.events as unknown[]) ?? []).slice(-count);
    if (page.body.has_more !== true) break;
    after = Number(page.body.next_after_sequence);
  }
  return { status: 200, body: { ...status.body, events } };
}

export function createMcpServer(routes: RouteSpec[], session: SessionInfo, call: ApiCall): Server {
  const tools = toolsFor(routes, session.scopes);
  const byName = new Map(tools.map((t) => [t.def.name, t]));
  const server = new Server(
    { name: 'gks', version: '1.0.0' },
    { capabilities: { tools: {}, resources: { listChanged: true }, prompts: {} } },
  );
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
    const began = performance.now();
    const args = { ...(request.params.arguments ?? {}), ...(tool.def.fixed ?? {}) };
    let answer: ApiAnswer;
    const missing = (tool.def.requires ?? []).filter((name) => args[name] === undefined || args[name] === null);
    if (missing.length > 0)
      answer = {
        status: 400,
        body: {
          error: {
            code: 'invalid_request',
            message: `${tool.def.name} needs ${missing.join(', ')}.`,
            details: { fields: missing.map((name) => ({ field: `/${name}`, reason: 'is required' })) },
          },
        },
      };
    else if (tool.def.name === 'loop_status') answer = await loopStatus(call, tool.route, args);
    else {
      const { path, body } = requestOf(tool.route, args);
      answer = await call(tool.route.method.toUpperCase(), path, body);
    }
    const { request_id: _requestId, ...content } = answer.body;
    const failed = answer.status >= 400;
    mcpToolCalls.inc({ tool: tool.def.name, outcome: failed ? 'tool_error' : 'ok' });
    mcpToolDuration.observe({ tool: tool.def.name }, (performance.now() - began) / 1000);
    if (failed) {
      return { isError: true, content: [{ type: 'text', text: errorText(answer.body) }], structuredContent: content };
    }
    const kind = tool.def.answer ?? (tool.def.write ? 'write' : 'json');
    const text =
      kind === 'write' && typeof content.delta_id === 'string'
        ? writeSummary(content)
        : kind === 'loop'
          ? loopSummary(content)
          : JSON.stringify(content);
    return { content: [{ type: 'text', text }], structuredContent: content };
  });
  registerResources(server, routes, session, call);
  registerPrompts(server, session, call);
  return server;
}
