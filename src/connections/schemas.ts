// Request and response schemas of the Connections area: one configuration schema per kind, chosen
// by kind (if/then), so a wrong field is a 400 naming /body/config/<field>.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField } from '../http/schemas.js';
import { CONNECTION_KINDS, CONNECTION_STATUSES, STATUS_REASONS, SYNC_STATUSES } from './types.js';

/** http(s) only, no user info, query or fragment: a token never rides in a URL. */
const baseUrl = {
  type: 'string',
  maxLength: 2000,
  pattern: '^https?://[^\\s/?#@\\x00-\\x1f\\x7f]+(/[^\\s?#@\\x00-\\x1f\\x7f]*)?$',
  description: 'http(s) URL without credentials, query, fragment or control characters.',
} as const satisfies JsonSchema;
const feedUrl = {
  type: 'string',
  maxLength: 2000,
  pattern: '^https?://[^\\s/?#@\\x00-\\x1f\\x7f]+(/[^\\s#@\\x00-\\x1f\\x7f]*)?$',
  description: 'http(s) URL of the feed, without credentials, fragment or control characters.',
} as const satisfies JsonSchema;
const fieldPath = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: '^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$',
} as const satisfies JsonSchema;
const paramName = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.\\[\\]-]+$',
} as const satisfies JsonSchema;
const auth = obj({
  header: {
    type: 'string',
    pattern: '^[A-Za-z0-9-]{1,64}$',
    default: 'Authorization',
    description: 'Header carrying the token.',
  },
  scheme: {
    type: 'string',
    pattern: '^[A-Za-z]{0,32}$',
    default: 'Bearer',
    description: 'Word before the token; empty for the bare token.',
  },
});

export const CONFIG_SCHEMAS: Record<(typeof CONNECTION_KINDS)[number], JsonSchema> = {
  http_json: obj(
    {
      base_url: baseUrl,
      path: {
        type: 'string',
        maxLength: 1000,
        pattern: '^/([^/\\\\\\s#@\\x00-\\x1f\\x7f][^\\\\\\s#@\\x00-\\x1f\\x7f]*)?$',
        description:
          'Path (and fixed query) of the records endpoint, below base_url: it starts with one "/", never "//", and ' +
          'holds no backslash, "#", "@", whitespace, control character, or "." / ".." segment (plain or ' +
          "percent-encoded), so it can never name another host. Every call is refused unless it goes to base_url's " +
          'origin (docs/security.md).',
      },
      auth,
      records_path: {
        ...fieldPath,
        minLength: 0,
        pattern: '^([A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*)?$',
        description: 'Dotted path to the records array; empty when the body is the array.',
      },
      id_field: fieldPath,
      updated_field: fieldPath,
      title_field: fieldPath,
      text_field: fieldPath,
      since_param: {
        ...paramName,
        description: 'Query parameter that receives the cursor (the newest updated_field value applied).',
      },
      pagination: obj(
        {
          type: {
            enum: ['none', 'link_header', 'cursor', 'page'],
            description: 'Required when pagination is given; no pagination object means none.',
          },
          param: {
            ...paramName,
            description: 'Query parameter of the cursor (default cursor) or page number (default page).',
          },
          cursor_path: {
            ...fieldPath,
            description: 'Dotted path of the next cursor in the body (default next_cursor).',
          },
          page_size: { type: 'integer', minimum: 1, maximum: 1000 },
          page_size_param: paramName,
        },
        ['type'],
      ),
    },
    ['base_url', 'path', 'id_field'],
  ),
  github_issues: obj(
    {
      repo: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$', description: 'owner/name' },
      base_url: { ...baseUrl, description: 'API root; default https://api.github.com (set it for GitHub Enterprise).' },
    },
    ['repo'],
  ),
  notion_pages: obj({
    base_url: { ...baseUrl, description: 'API root; default https://api.notion.com.' },
    notion_version: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', default: '2022-06-28' },
  }),
  feed: obj({ url: feedUrl, auth }, ['url']),
};

export const secretBody = obj(
  {
    token: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      pattern: '^[\\x21-\\x7E]+$',
      writeOnly: true,
      description: 'The platform token; printable ASCII. Never returned.',
    },
  },
  ['token'],
);
/**
 * Where synced records go. Given, it names its route (an empty target is a 400, not a quiet reset to
 * document on PATCH); left out of a create, the route is document.
 */
export const targetBody = obj({ route: { enum: ['document', 'submission'] } }, ['route'], {
  description: 'Where synced records go; left out of a create, {"route": "document"}.',
});
export const scheduleBody = obj(
  {
    every: {
      type: 'string',
      pattern: '^P(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+S)?)?$',
      minLength: 3,
      maxLength: 32,
      description: 'ISO-8601 duration, at least PT1M (e.g. PT15M, PT1H, P1D).',
    },
  },
  ['every'],
);

const kindRules: JsonSchema[] = CONNECTION_KINDS.map((kind) => ({
  if: { properties: { kind: { const: kind } }, required: ['kind'] },
  then: { properties: { config: CONFIG_SCHEMAS[kind] } },
}));

export const createBody = {
  ...obj(
    {
      project_id: projectIdField,
      name: { type: 'string', minLength: 1, maxLength: 200 },
      kind: { enum: [...CONNECTION_KINDS] },
      config: { type: 'object' },
      secret: secretBody,
      target: targetBody,
      apply_policy: {
        enum: ['stage', 'apply_if_safe'],
        default: 'stage',
        description: 'apply_if_safe applies each safe sync delta; setting it also needs the deltas:apply scope.',
      },
      schedule: scheduleBody,
      apply: {
        type: 'boolean',
        default: true,
        description: 'Apply the delta that creates the connection (default) or leave it staged.',
      },
    },
    ['name', 'kind', 'config'],
  ),
  allOf: [...kindRules, { if: { properties: { kind: { not: { const: 'feed' } } } }, then: { required: ['secret'] } }],
  description: 'secret is required for every kind but feed (whose token is optional).',
} as const satisfies JsonSchema;

export const testBody = {
  ...obj(
    {
      project_id: projectIdField,
      kind: { enum: [...CONNECTION_KINDS] },
      config: { type: 'object' },
      secret: secretBody,
    },
    ['kind', 'config'],
  ),
  allOf: [...kindRules, { if: { properties: { kind: { not: { const: 'feed' } } } }, then: { required: ['secret'] } }],
} as const satisfies JsonSchema;

export const patchBody = obj(
  {
    project_id: projectIdField,
    name: { type: 'string', minLength: 1, maxLength: 200 },
    config: { type: 'object', description: "The whole new configuration, validated against the connection's kind." },
    secret: secretBody,
    target: targetBody,
    apply_policy: {
      enum: ['stage', 'apply_if_safe'],
      description: 'apply_if_safe applies each safe sync delta; setting it also needs the deltas:apply scope.',
    },
    schedule: { oneOf: [scheduleBody, { type: 'null' }], description: 'null removes the schedule.' },
  },
  [],
  { minProperties: 1 },
);

export const syncBody = obj({
  project_id: projectIdField,
  full_refresh: { type: 'boolean', default: false },
});
export { projectOnlyBody } from '../http/schemas.js';
export { idParams } from '../http/schemas.js';
export const syncParams: JsonSchema = obj(
  { id: { type: 'string', minLength: 1, maxLength: 64 }, sync_id: { type: 'string', minLength: 1, maxLength: 64 } },
  ['id', 'sync_id'],
);

const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;
const checkSchema = obj(
  {
    name: { enum: ['reachable', 'authenticated', 'scope'] },
    ok: { type: 'boolean' },
    http_status: { type: ['integer', 'null'] },
  },
  ['name', 'ok', 'http_status'],
);
export const testResult = obj(
  {
    ok: { type: 'boolean' },
    checks: { type: 'array', items: checkSchema },
    identity: { type: ['object', 'null'] },
    latency_ms: { type: 'number', minimum: 0 },
    status: { enum: [...CONNECTION_STATUSES] },
    status_reason: { enum: [...STATUS_REASONS, null] },
    error: nullableString,
    request_id: { type: 'string' },
  },
  ['ok', 'checks', 'identity', 'latency_ms'],
);

export const syncSchema = obj({
  sync_id: { type: 'string' },
  connection_id: { type: 'string' },
  delta_id: { type: 'string' },
  status: { enum: [...SYNC_STATUSES] },
  trigger: { enum: ['manual', 'schedule'] },
  full_refresh: { type: 'boolean' },
  since: nullableString,
  cursor: nullableString,
  pages: { type: 'integer', minimum: 0 },
  records: obj({
    seen: { type: 'integer' },
    created: { type: 'integer' },
    updated: { type: 'integer' },
    unchanged: { type: 'integer' },
  }),
  delta_status: nullableString,
  error: nullableString,
  resumed_from: nullableString,
  workflow_id: {
    ...nullableString,
    description: 'The Temporal workflow that runs the sync (find it in the Temporal Web UI).',
  },
  apply_outcome: nullableString,
  created_at: nullableString,
  started_at: nullableString,
  finished_at: nullableString,
  links: { type: 'object', additionalProperties: { type: 'string' } },
});

export const connectionSchema = obj({
  id: { type: 'string' },
  project_id: { type: 'string' },
  name: { type: 'string' },
  kind: { enum: [...CONNECTION_KINDS] },
  config: { type: 'object' },
  target: obj({ route: { enum: ['document', 'submission'] } }),
  apply_policy: { enum: ['stage', 'apply_if_safe'] },
  schedule: { oneOf: [obj({ every: { type: 'string' } }), { type: 'null' }] },
  status: { enum: [...CONNECTION_STATUSES] },
  status_reason: { enum: [...STATUS_REASONS, null] },
  secret: obj({
    set: { type: 'boolean' },
    fingerprint: nullableString,
    set_at: nullableString,
    key_id: nullableString,
  }),
  cursor: { ...nullableString, description: 'Where the next sync starts: the cursor of the last applied sync delta.' },
  pending: { type: 'boolean', description: 'The delta that creates the connection is still staged.' },
  delta_id: { type: 'string' },
  last_sync: { oneOf: [syncSchema, { type: 'null' }] },
  created_at: nullableString,
  updated_at: nullableString,
});
