// JSON Schemas of the Documents area (docs/documents.md), compiled by ajv and published
// in OpenAPI.
import type { JsonSchema } from '../http/route.js';
import { cursorPage, cursorQuery, dateTime, obj, projectIdField } from '../http/schemas.js';
import { MAX_TAGS } from './collections.js';

/** How a document came in: raw text, a fetched URL, an uploaded file, or a connection's sync. */
export const DOCUMENT_TYPES = ['text', 'url', 'file', 'connection'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_STAGES = ['indexed', 'extracting', 'extracted', 'failed'] as const;
export type DocumentStage = (typeof DOCUMENT_STAGES)[number];

const tag = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description:
    'Must keep a letter or digit once normalised (case, spacing, edge punctuation and a leading "the" are ' +
    'ignored), else a 400.',
} as const satisfies JsonSchema;

export const createDocumentBody = obj(
  {
    content: {
      type: 'string',
      minLength: 1,
      allOf: [{ pattern: '\\S', 'x-reason': 'contains no text to index' }],
      description: 'Raw text to index (type text), not blank. Exactly one of content or url (or a multipart file).',
    },
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      allOf: [
        {
          pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+([/?#]\\S*)?$',
          'x-reason': 'must be an absolute http or https URL',
        },
      ],
      description:
        'An absolute http(s) URL to fetch and index (type url). HTML is reduced to its readable text and ' +
        'title. A host that does not resolve, or resolves to a private address (unless the service allows ' +
        'them), is a 400 naming url.',
    },
    title: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description:
        'Default: the title found in the source (HTML <title>, first Markdown heading, PDF title), else the ' +
        'file name, URL or first line.',
    },
    tags: {
      type: 'array',
      items: tag,
      maxItems: MAX_TAGS,
      description:
        'Each tag puts the document in the project collection of that name (matched by normalised name, ' +
        'created when absent). In a multipart upload: one comma-separated field.',
    },
    project_id: projectIdField,
  },
  [],
  {
    description: 'JSON: exactly one of content or url.',
    oneOf: [
      { required: ['content'], 'x-reason': 'exactly one of content or url is required' },
      { required: ['url'], 'x-reason': 'exactly one of content or url is required' },
    ],
    if: { required: ['content', 'url'] },
    then: {
      properties: {
        content: { not: {}, 'x-reason': 'exactly one of content or url may be given, not both' },
        url: { not: {}, 'x-reason': 'exactly one of content or url may be given, not both' },
      },
    },
  },
);

/** The text fields of a multipart upload beside its one file part. */
export const uploadFields = {
  title: { type: 'string', minLength: 1, maxLength: 500 },
  tags: { type: 'string', maxLength: 5000, description: 'comma-separated' },
  project_id: projectIdField,
  content: { not: {}, 'x-reason': 'must be omitted when a file is uploaded', description: 'Not accepted with a file.' },
  url: { not: {}, 'x-reason': 'must be omitted when a file is uploaded', description: 'Not accepted with a file.' },
} as const satisfies Record<string, JsonSchema>;

const statusSchema = {
  type: 'object',
  required: ['stage', 'processing', 'pendingReview', 'outdated'],
  properties: {
    stage: {
      enum: [...DOCUMENT_STAGES],
      description: 'indexed → extracting → extracted (or failed); a new extraction moves it to extracting again.',
    },
    processing: { type: 'boolean', description: 'An extraction is running (stage extracting).' },
    pendingReview: {
      type: 'boolean',
      description: 'An extraction delta that uses this document is staged, awaiting review.',
    },
    outdated: { type: 'boolean', description: 'The text changed after its last successful extraction.' },
  },
} as const satisfies JsonSchema;

const common = {
  id: { type: 'string' },
  type: { enum: [...DOCUMENT_TYPES] },
  title: { type: 'string' },
  mimeType: {
    type: 'string',
    description:
      'The type of the content as read (sniffed from the bytes), e.g. text/plain, text/html, application/pdf.',
  },
  sizeBytes: { type: 'integer', description: 'Bytes of the source as received (UTF-8 bytes for raw text).' },
  status: statusSchema,
  extractionCount: { type: 'integer', description: 'Successful extractions.' },
  addedAt: dateTime,
} as const satisfies Record<string, JsonSchema>;

export const listItemSchema = {
  type: 'object',
  properties: {
    ...common,
    ragReady: {
      type: 'boolean',
      description: 'Its chunks are committed and answerable by the chunk_text full-text index.',
    },
    entityCount: {
      type: 'integer',
      description: 'Entities created or updated by applied extraction deltas that used this document.',
    },
    addedByName: {
      type: 'string',
      description: 'Name of the API key that added it; for an unnamed key its public prefix gks_<lookup>.',
    },
    collections: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    },
    governanceStatus: { const: 'active' },
  },
} as const satisfies JsonSchema;

export const sourceSchema = {
  type: 'object',
  properties: {
    ...common,
    lastExtractionShape: {
      type: ['string', 'null'],
      description: 'Name of the shape of the last successful extraction.',
    },
    extractedTokenCount: { type: 'integer' },
    extractedCharCount: { type: 'integer' },
    addedBy: { type: 'string', description: 'Id of the API key that added it.' },
    updatedAt: dateTime,
  },
} as const satisfies JsonSchema;

export const createResultSchema = {
  type: 'object',
  required: ['id', 'status', 'project_id', 'document', 'request_id'],
  properties: {
    id: { type: 'string' },
    status: { const: 'indexed' },
    project_id: { type: 'string' },
    document: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        type: { enum: [...DOCUMENT_TYPES] },
        ragReady: { type: 'boolean' },
      },
    },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;

export const listQuery = cursorQuery();

export const listResultSchema = cursorPage('sources', listItemSchema);

export const extractBody = obj(
  {
    shape_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'A shape visible to the project (built-in or its own).',
    },
    project_id: projectIdField,
  },
  ['shape_id'],
);

export const handoffSchema = {
  type: 'object',
  required: ['status', 'document_id', 'next_action', 'request_id'],
  properties: {
    status: { const: 'ready' },
    document_id: { type: 'string' },
    next_action: {
      type: 'object',
      properties: {
        method: { const: 'POST' },
        path: { const: '/v1/extractions/shape' },
        body: { type: 'object', properties: { project_id: { type: 'string' }, source_file_id: { type: 'string' } } },
      },
    },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;
