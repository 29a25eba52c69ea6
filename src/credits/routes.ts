// GET /v1/credits: the organization's credit balance and its recent ledger entries (a project key:
// only its own project's entries). PATCH /v1/credits: the organization's low-balance threshold
// (credits.low webhook events), with an organization key.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyOf, queryOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { obj } from '../http/schemas.js';
import { creditBalance, setLowBalanceThreshold } from './service.js';

const thresholdSchema = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 1_000_000_000,
  description:
    'A loop reservation taking the balance from at or above this to below it emits credits.low to the webhooks ' +
    'of the project that started the loop. null (the default): off.',
} as const;

const creditsQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    project_id: { type: 'string' },
  },
  additionalProperties: false,
} as const;
const thresholdBody = obj({ low_balance_threshold: thresholdSchema }, ['low_balance_threshold']);

export function creditRoutes(deps: Deps) {
  const getCreditsAnswer = {
    type: 'object',
    properties: {
      organization_id: { type: 'string' },
      balance: {
        type: 'number',
        description: 'Credits available to start loops and LLM briefings (reservations already deducted).',
      },
      reserved: { type: 'number', description: 'Credits held by running loops.' },
      low_balance_threshold: thresholdSchema,
      entries: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            kind: {
              enum: ['grant', 'reserve', 'settle', 'refund', 'charge'],
              description:
                'grant: credits added; reserve/settle: a loop holds its estimate and keeps its real cost; ' +
                'charge: a briefing written by the configured LLM; refund: a charge given back because ' +
                'the LLM did not answer.',
            },
            amount: { type: 'number' },
            reason: { type: ['string', 'null'] },
            loop_id: { type: ['string', 'null'] },
            balance_after: { type: 'number' },
            created_at: { type: 'string' },
          },
        },
      },
    },
  } as const;
  const updateCreditsAnswer = {
    type: 'object',
    required: ['organization_id', 'balance', 'reserved', 'low_balance_threshold'],
    properties: {
      organization_id: { type: 'string' },
      balance: { type: 'number' },
      reserved: { type: 'number' },
      low_balance_threshold: thresholdSchema,
    },
  } as const;
  return defineRoutes([
    route<typeof getCreditsAnswer>({
      method: 'get',
      path: '/v1/credits',
      operationId: 'getCredits',
      tag: 'Credits',
      scope: 'credits:read',
      summary: "The organization's credit balance and recent ledger entries",
      description:
        'An organization key sees every entry; a project key sees the balance and only the entries of its ' +
        "own project's loops.",
      query: creditsQuery,
      status: 200,
      errors: [],
      response: getCreditsAnswer,
      handler: async (ctx) => {
        const auth = ctx.state.auth!; // set by authenticate()
        const { limit } = queryOf<typeof creditsQuery>(ctx);
        const balance = await creditBalance(deps.graph, auth.organizationId, auth.projectId, limit);
        return { body: { organization_id: auth.organizationId, ...balance } };
      },
    }),
    route<typeof updateCreditsAnswer>({
      method: 'patch',
      path: '/v1/credits',
      operationId: 'updateCredits',
      tag: 'Credits',
      scope: 'credits:write',
      summary: "Set the organization's low-balance threshold (credits.low webhook events)",
      description:
        'An organization setting, so it needs an organization key (a project key: 403). null turns the ' +
        'credits.low event off.',
      body: thresholdBody,
      status: 200,
      errors: ['invalid_request', 'not_found'],
      response: updateCreditsAnswer,
      handler: async (ctx) => {
        const auth = ctx.state.auth!; // set by authenticate()
        if (auth.projectId !== null)
          throw new ApiError('forbidden', "The low-balance threshold is the organization's: use an organization key.", {
            key_scope: 'project',
          });
        const { low_balance_threshold: threshold } = bodyOf<typeof thresholdBody>(ctx);
        const row = await setLowBalanceThreshold(deps.graph, auth.organizationId, threshold);
        if (!row) throw new ApiError('not_found', 'This organization has no credit account.');
        return { body: { organization_id: auth.organizationId, ...row } };
      },
    }),
  ]);
}
