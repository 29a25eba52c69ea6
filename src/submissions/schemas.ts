// JSON Schemas of the Submissions area (docs/submissions.md).
import { obj, projectIdField, governedWriteSchema } from '../http/schemas.js';

export const SUBMISSION_ROUTES = ['delta', 'document', 'extraction'] as const;
export type SubmissionRoute = (typeof SUBMISSION_ROUTES)[number];

export const submissionBody = obj(
  {
    kind: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'What was captured: note, event, form, payload, ... (free text tag).',
    },
    content: {
      type: 'string',
      minLength: 1,
      maxLength: 1_000_000,
      description: 'Text of the capture. content or payload (or both) is required.',
    },
    payload: {
      type: 'object',
      maxProperties: 200,
      description:
        'Structured capture. Stored as flat properties payload.<key> (nested keys dotted) while it has at most ' +
        '32 leaves, nests at most 2 levels and every key is 1-64 of [A-Za-z0-9_-]; otherwise those flat keys ' +
        'that fit plus the whole payload as canonical JSON text in payload_json (property key names are ' +
        'database-wide and never reclaimed).',
    },
    route: {
      enum: [...SUBMISSION_ROUTES],
      default: 'delta',
      description:
        'delta: a :Submission node and the entities it names; document: index content as a document; ' +
        'extraction: index content and start a graph_extraction loop through shape_id.',
    },
    shape_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description:
        'delta: the shape whose entity types are looked for in content (default the general shape); ' +
        'extraction: required.',
    },
    title: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'document and extraction routes: the document title.',
    },
    tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, maxItems: 50 },
    project_id: projectIdField,
    apply: {
      type: 'boolean',
      description:
        'Default true. The extraction route always stages (a loop never applies), so apply true is refused there.',
    },
  },
  ['kind'],
  {
    description:
      'content or payload (or both). Routes document and extraction index text: content is required; ' +
      'document never stages (apply true or omitted); extraction needs shape_id and always stages (apply ' +
      'false or omitted, else apply_not_supported_for_loops).',
    anyOf: [{ required: ['content'] }, { required: ['payload'] }],
    allOf: [
      {
        if: { required: ['route'], properties: { route: { const: 'document' } } },
        then: {
          required: ['content'],
          properties: { apply: { const: true, 'x-reason': 'must be true or omitted for route document' } },
        },
      },
      {
        if: { required: ['route'], properties: { route: { const: 'extraction' } } },
        then: {
          required: ['content', 'shape_id'],
          properties: {
            apply: {
              const: false,
              'x-reason': 'must be false or omitted for route extraction',
              'x-error-code': 'apply_not_supported_for_loops',
            },
          },
        },
      },
    ],
  },
);

export const submissionResult = governedWriteSchema({
  route: { enum: [...SUBMISSION_ROUTES] },
  submission: {
    type: 'object',
    properties: { kind: { type: 'string' }, entity_ids: { type: 'array', items: { type: 'string' } } },
  },
  loop_id: { type: 'string', description: 'extraction route: the loop started' },
  links: { type: 'object', description: 'extraction route: the loop links' },
});
