// GET /v1/credits: the organization's credit balance and its recent ledger entries (a project key:
// only its own project's entries).
import type { Deps } from '../http/deps.js';
import { defineRoutes } from '../http/route.js';
import { queryOf } from '../http/app.js';
import { creditBalance } from './service.js';

export function creditRoutes(deps: Deps) {
  return defineRoutes([
    {
      method: 'get',
      path: '/v1/credits',
      operationId: 'getCredits',
      tag: 'Credits',
      scope: 'credits:read',
      summary: "The organization's credit balance and recent ledger entries",
      description:
        'An organization key sees every entry; a project key sees the balance and only the entries of its ' +
        "own project's loops.",
      query: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          project_id: { type: 'string' },
        },
        additionalProperties: false,
      },
      status: 200,
      errors: [],
      response: {
        type: 'object',
        properties: {
          organization_id: { type: 'string' },
          balance: {
            type: 'number',
            description: 'Credits available to start loops and LLM briefings (reservations already deducted).',
          },
          reserved: { type: 'number', description: 'Credits held by running loops.' },
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
      },
      handler: async (ctx) => {
        const auth = ctx.state.auth!; // set by authenticate()
        const { limit } = queryOf<{ limit: number }>(ctx);
        const balance = await creditBalance(deps.graph, auth.organizationId, auth.projectId, limit);
        return { body: { organization_id: auth.organizationId, ...balance } };
      },
    },
  ]);
}
