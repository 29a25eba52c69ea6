// propose(): an API description in, a proposal and its unmapped parts out. Pure and deterministic:
// the same document and options always give the same proposal (types in discovery order).
import crypto from 'node:crypto';
import { ApiError } from '../../errors/catalogue.js';
import { canonicalJsonOf } from '../../shared/canonicalJson.js';
import { buildProposal } from './build.js';
import { readJsonSchemaSource } from './fromJsonSchema.js';
import { parseGraphqlIntrospection, parseGraphqlSdl, readGraphqlSource } from './fromGraphql.js';
import type { ProposeOptions, ProposeResult, SourceFormat } from './types.js';

export * from './types.js';
export { proposalToDefinition } from './build.js';

/** The source as text or parsed JSON, with the request field it came from (for error pointers). */
export interface SourceInput {
  format: SourceFormat;
  document: unknown;
  field: string;
}

function asJsonObject(source: SourceInput): Record<string, unknown> {
  let doc = source.document;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch {
      throw new ApiError('invalid_request', `The ${source.format} source is not JSON.`, {
        fields: [{ field: source.field, reason: 'is not a JSON document' }],
      });
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ApiError('invalid_request', `The ${source.format} source must be a JSON object.`, {
      fields: [{ field: source.field, reason: 'must be a JSON object' }],
    });
  }
  return doc as Record<string, unknown>;
}

export function propose(source: SourceInput, options: ProposeOptions): ProposeResult {
  if (source.format === 'graphql_sdl') {
    if (typeof source.document !== 'string')
      throw new ApiError('invalid_request', 'graphql_sdl takes the SDL as a string.', {
        fields: [{ field: source.field, reason: 'must be a string of GraphQL SDL' }],
      });
    return buildProposal(
      source.format,
      readGraphqlSource(parseGraphqlSdl(source.document, source.field), options),
      options,
    );
  }
  if (source.format === 'graphql_introspection') {
    return buildProposal(
      source.format,
      readGraphqlSource(parseGraphqlIntrospection(asJsonObject(source), source.field), options),
      options,
    );
  }
  const doc = asJsonObject(source);
  if (source.format === 'openapi' && !(typeof doc.openapi === 'string' && /^3\.[01]\./.test(doc.openapi))) {
    throw new ApiError(
      'invalid_request',
      'An openapi source must be an OpenAPI 3.0 or 3.1 document (field openapi: "3.0.x" or "3.1.x").',
      {
        fields: [{ field: `${source.field}/openapi`, reason: 'must be 3.0.x or 3.1.x' }],
      },
    );
  }
  return buildProposal(source.format, readJsonSchemaSource(doc, source.format, options, source.field), options);
}

/** SHA-256 of the source as given (text as is, JSON canonically: sorted keys). */
export function sourceDigest(document: unknown): string {
  const text = typeof document === 'string' ? document : canonicalJsonOf(document);
  return `sha256:${crypto.createHash('sha256').update(text).digest('hex')}`;
}
