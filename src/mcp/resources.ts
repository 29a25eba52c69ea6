// MCP resources and prompts (docs/mcp.md), each read through the /v1 routes as the session's key:
//   gks://ontology          GET /v1/ontology                         (shapes:read)
//   gks://slices/{name}     the slice's newest committed version, compiled (slices:read + context:read)
//   gks://packs/{id}        GET /v1/context/packs/{id}                (context:read)
// Prompts: briefing (a briefing on a subject within a token budget, with the compiled brief as its
// evidence) and review_delta (the delta with its changes and its preflight verdict).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type GetPromptResult,
  type Prompt,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { RouteSpec } from '../http/route.js';
import { errorText, hasScope, type ApiAnswer, type ApiCall, type SessionInfo } from './call.js';

/** MCP's "resource not found" error code (the specification's -32002). */
const RESOURCE_NOT_FOUND = -32002;

function refused(answer: ApiAnswer, uri: string): McpError {
  const code = answer.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
  return new McpError(code, `${uri}: ${errorText(answer.body)}`);
}

async function ok(call: ApiCall, method: string, path: string, body?: Record<string, unknown>, uri = path) {
  const answer = await call(method, path, body);
  if (answer.status >= 400) throw refused(answer, uri);
  const { request_id: _requestId, ...rest } = answer.body;
  return rest;
}

/** Every page of a list route (at most 1,000 rows: a resource list is for a person to pick from). */
async function allPages(call: ApiCall, path: string, key: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await ok(
      call,
      'GET',
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    rows.push(...((page[key] as Record<string, unknown>[]) ?? []));
    cursor = page.has_more === true && typeof page.next_cursor === 'string' ? page.next_cursor : null;
  } while (cursor && rows.length < 1000);
  return rows;
}

export function registerResources(server: Server, routes: RouteSpec[], session: SessionInfo, call: ApiCall): void {
  const scope = (operationId: string) =>
    hasScope(session.scopes, routes.find((r) => r.operationId === operationId)?.scope);
  const ontology = scope('getOntology');
  const slices = scope('listSlices') && scope('compileSlice');
  const packs = scope('listContextPacks');
  // An organization key names its project per call; resources have no arguments, so they are a project key's.
  const project = session.projectId !== null;

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources: Resource[] = [];
    if (!project) return { resources };
    if (ontology)
      resources.push({
        uri: 'gks://ontology',
        name: 'ontology',
        title: 'Ontology',
        description: 'The entity types, relationship types and shapes of the project.',
        mimeType: 'application/json',
      });
    if (slices) {
      const seen = new Set<string>();
      for (const s of await allPages(call, '/v1/slices', 'slices')) {
        const name = String(s.name);
        if (seen.has(name)) continue; // newest version first within a name
        seen.add(name);
        resources.push({
          uri: `gks://slices/${encodeURIComponent(name)}`,
          name: `slice ${name}`,
          description:
            (typeof s.description === 'string' ? `${s.description} ` : '') +
            `Reading it compiles the slice (version ${String(s.version)}) into a context pack.`,
          mimeType: 'application/json',
        });
      }
    }
    if (packs) {
      for (const p of await allPages(call, '/v1/context/packs', 'packs')) {
        resources.push({
          uri: `gks://packs/${encodeURIComponent(String(p.id))}`,
          name: `context pack ${String(p.id)}`,
          description: 'A saved context pack: its stored summary and what it selected.',
          mimeType: 'application/json',
        });
      }
    }
    return { resources };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      ...(project && slices
        ? [
            {
              uriTemplate: 'gks://slices/{name}',
              name: 'slice',
              description: "A saved slice by name; reading it compiles the slice's newest committed version.",
              mimeType: 'application/json',
            },
          ]
        : []),
      ...(project && packs
        ? [{ uriTemplate: 'gks://packs/{id}', name: 'context pack', mimeType: 'application/json' }]
        : []),
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const json = (value: unknown) => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }],
    });
    const match = /^gks:\/\/(ontology|slices|packs)(?:\/([^/]+))?$/.exec(uri);
    const kind = match?.[1];
    const arg = match?.[2] ? decodeURIComponent(match[2]) : undefined;
    if (!project || !match) throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`);
    if (kind === 'ontology' && ontology && !arg) return json(await ok(call, 'GET', '/v1/ontology', undefined, uri));
    if (kind === 'slices' && slices && arg) {
      const found = await ok(call, 'GET', `/v1/slices?limit=1&name=${encodeURIComponent(arg)}`, undefined, uri);
      const slice = (found.slices as { id: string }[] | undefined)?.[0];
      if (!slice) throw new McpError(RESOURCE_NOT_FOUND, `${uri}: no committed slice named ${arg}`);
      return json(await ok(call, 'POST', `/v1/slices/${encodeURIComponent(slice.id)}/compile`, {}, uri));
    }
    if (kind === 'packs' && packs && arg)
      return json(await ok(call, 'GET', `/v1/context/packs/${encodeURIComponent(arg)}`, undefined, uri));
    throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`);
  });
}

export function registerPrompts(server: Server, session: SessionInfo, call: ApiCall): void {
  const prompts: Prompt[] = [];
  if (hasScope(session.scopes, 'context:read'))
    prompts.push({
      name: 'briefing',
      title: 'Briefing on a subject',
      description: 'A briefing on a subject from the governed graph, within a token budget, with its evidence.',
      arguments: [
        { name: 'subject', description: 'What the briefing is about.', required: true },
        { name: 'budget', description: 'Most tokens of evidence to gather (64 to 32000; default 2000).' },
      ],
    });
  if (hasScope(session.scopes, 'deltas:read'))
    prompts.push({
      name: 'review_delta',
      title: 'Review a staged delta',
      description: 'Review a staged delta: its changes and preflight findings, ending with apply or reject.',
      arguments: [{ name: 'delta_id', description: 'The delta to review.', required: true }],
    });
  const offered = new Set(prompts.map((p) => p.name));

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts }));
  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (!offered.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    if (name === 'briefing') {
      const subject = (args.subject ?? '').trim();
      if (!subject) throw new McpError(ErrorCode.InvalidParams, 'briefing needs a subject');
      const budget = args.budget === undefined ? 2000 : Number(args.budget);
      if (!Number.isInteger(budget) || budget < 64 || budget > 32_000)
        throw new McpError(ErrorCode.InvalidParams, 'budget must be an integer from 64 to 32000');
      const brief = await ok(call, 'POST', '/v1/context/brief', {
        slice: { planes: ['memory', 'entity', 'document'] },
        query: subject,
        max_tokens: budget,
      });
      return {
        description: `Briefing on ${subject} (evidence within ${budget} tokens)`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Write a briefing on "${subject}" for a colleague. Use only the evidence below, from the governed ` +
                'knowledge graph; say what is missing rather than guessing, and keep the refs of what you cite.\n\n' +
                `${typeof brief.markdown === 'string' ? brief.markdown : JSON.stringify(brief)}`,
            },
          },
        ],
      };
    }
    const deltaId = (args.delta_id ?? '').trim();
    if (!deltaId) throw new McpError(ErrorCode.InvalidParams, 'review_delta needs a delta_id');
    const delta = await ok(call, 'GET', `/v1/deltas/${encodeURIComponent(deltaId)}`);
    const staged = (delta.delta as { status?: string } | undefined)?.status === 'staged';
    const audit =
      staged && hasScope(session.scopes, 'preflight:run')
        ? await ok(call, 'POST', '/v1/preflight/audit', { delta_id: deltaId })
        : null;
    return {
      description: `Review of delta ${deltaId}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Review delta ${deltaId} of the governed knowledge graph. Summarise what it would change, judge each ` +
              'preflight finding, point out anything wrong or missing, and end with one line: "Recommendation: ' +
              'apply" or "Recommendation: reject", with the reason.\n\nDelta and changes:\n' +
              JSON.stringify(delta.delta) +
              (audit
                ? `\n\nPreflight verdict:\n${JSON.stringify(audit)}`
                : `\n\n(No preflight verdict: ${staged ? 'the key lacks preflight:run' : 'the delta is not staged'}.)`),
          },
        },
      ],
    };
  });
}
