// JSON Schemas of the Preflight area (docs/preflight.md): the audit request, the verdict and the finding.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField } from '../http/schemas.js';
import { DISPOSITIONS, PACKET_PREFIX, PURPOSE } from './verdict.js';
import { EFFECTS, SEVERITIES } from './checks.js';

export const auditBody = obj(
  {
    delta_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The staged delta to audit.' },
    project_id: projectIdField,
  },
  ['delta_id'],
);

export const findingSchema = {
  type: 'object',
  description:
    'One thing applying the delta would break or put at risk. Findings are sorted by severity (error, ' +
    'warning, info), check, node_ids, relationship_ids, message.',
  required: ['check', 'severity', 'effect', 'message', 'node_ids', 'relationship_ids', 'evidence'],
  additionalProperties: false,
  properties: {
    check: {
      type: 'string',
      description:
        'Name of the check: the file cypher/preflight/<check>.cypher (duplicates, shape_properties, ' +
        'shape_relationships, dangling, contradictions, cycles, forgotten_references, losses, orphans, ...).',
    },
    severity: {
      enum: [...SEVERITIES],
      description: 'error blocks an apply (Blocked); warning asks for review (ReviewRequired); info does not degrade.',
    },
    effect: {
      enum: [...EFFECTS],
      description:
        'What the delta does to the condition: introduces it, worsens one that already held (it adds to it), or ' +
        'touches one that already held before the delta unchanged (for example two committed shapes already ' +
        'defining one label differently, met again by a new version that keeps its definition). Only introduces ' +
        'and worsens count toward the disposition, delta.degrades and the apply guard; a touches finding is ' +
        'reported for the record.',
    },
    message: { type: 'string', description: 'What is wrong and what a reviewer can do about it.' },
    node_ids: {
      type: 'array',
      items: { type: 'string' },
      description: 'Ids of the nodes involved (pending and committed), sorted.',
    },
    relationship_ids: {
      type: 'array',
      items: { type: 'string' },
      description: 'Ids of the relationships involved, sorted.',
    },
    evidence: {
      type: 'object',
      description:
        'Flat map of facts behind the finding; null values are left out. Always rule (the sub-rule of the ' +
        'check); as relevant: pending_node_id, committed_node_id, other_pending_node_id, node_id, node_type, ' +
        'identity_key, shape_id, entity_label, relationship_type, property, cardinality, expected, actual, ' +
        'subject_id, subject_name, predicate, memory_id, forget_after, end, missing_end, change_id, path, ' +
        'length, dependent_count, relationship_types, similarity, threshold, model; a contradiction whose fix is a ' +
        'close correction adds correction_method (POST), correction_path (/v1/memories/{id}/close) and ' +
        'correction_valid_to: the one call that stages it (docs/facts.md).',
      required: ['rule'],
      properties: {
        rule: { type: 'string' },
        committed_node_id: { type: 'string' },
        pending_node_id: { type: 'string' },
        shape_id: { type: 'string' },
        property: { type: 'string' },
        expected: {},
        actual: {},
      },
      additionalProperties: { type: ['string', 'number', 'boolean', 'array'] },
    },
  },
} as const satisfies JsonSchema;

export const verdictSchema = {
  type: 'object',
  required: ['disposition', 'purpose', 'findings', 'packet_id', 'delta', 'request_id'],
  additionalProperties: false,
  properties: {
    degraded: {
      type: 'array',
      items: { enum: ['semantic'] },
      description:
        'What this audit had to do without: ["semantic"] when the embedding engine was down, off or too slow ' +
        'to compare the new memories and entities by meaning (the near_content, near_content_in_delta and ' +
        'near_entity findings are then missing). Empty otherwise. Always present in answers of this route; not ' +
        "in the required list, which is the interface contract's.",
    },
    disposition: {
      enum: [...DISPOSITIONS],
      description:
        'SafeToAct: no warning or error. ReviewRequired: warnings only. Blocked: at least one error (an ' +
        'explicit apply is refused unless it gives override_reason). Only findings whose effect is introduces ' +
        'or worsens count.',
    },
    purpose: { const: PURPOSE },
    findings: { type: 'array', items: findingSchema },
    packet_id: {
      type: 'string',
      pattern: `^${PACKET_PREFIX}`,
      description: `${PACKET_PREFIX} followed by the delta id.`,
    },
    delta: {
      type: 'object',
      required: ['degrades'],
      additionalProperties: false,
      properties: {
        degrades: {
          type: 'boolean',
          description: 'true when any finding that counts (effect introduces or worsens) is a warning or an error.',
        },
      },
    },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;
