// JSON Schemas of the webhooks routes' requests.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField, uuid } from '../http/schemas.js';
import { EVENT_TYPES } from './events.js';

/** What an endpoint may subscribe to: every event type but ping (sent by the test route alone). */
export const SUBSCRIBABLE = EVENT_TYPES.filter((t) => t !== 'ping');

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description:
    'An absolute http(s) URL. A host resolving to a private address is refused (400) unless the service ' +
    'allows private addresses (FETCH_ALLOW_PRIVATE); checked again before every attempt.',
} as const satisfies JsonSchema;
const events = {
  type: 'array',
  minItems: 1,
  maxItems: SUBSCRIBABLE.length,
  uniqueItems: true,
  items: { enum: SUBSCRIBABLE },
} as const satisfies JsonSchema;
const description = { type: 'string', maxLength: 500 } as const satisfies JsonSchema;
const enabled = { type: 'boolean', description: 'Enabling clears disabled_reason.' } as const satisfies JsonSchema;

export const createBody = obj(
  { project_id: projectIdField, url, events, description, enabled: { ...enabled, default: true } },
  ['url', 'events'],
);
export const patchBody = obj({ project_id: projectIdField, url, events, description, enabled });
export { projectOnlyBody } from '../http/schemas.js';
export const deliveryParams = obj({ id: uuid, delivery_id: { type: 'string', minLength: 1, maxLength: 128 } }, [
  'id',
  'delivery_id',
]);
