// Response types derived from the response schemas the OpenAPI document publishes (json-schema-to-ts, types
// only: nothing here runs), so a handler's answer is checked against what the document declares.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The schema as the answers are held to it: every object schema that has `type: 'object'` and lists its
 * properties is read as closed (a field the document does not declare is a type error), unless it says
 * otherwise with its own additionalProperties. The published document is not changed by this reading.
 */
export type Closed<S> = S extends readonly unknown[]
  ? { readonly [K in keyof S]: Closed<S[K]> }
  : S extends object
    ? CloseObject<{
        readonly [K in keyof S]: K extends 'properties' | 'patternProperties'
          ? { readonly [P in keyof S[K]]: Closed<S[K][P]> }
          : K extends 'items' | 'anyOf' | 'oneOf' | 'additionalProperties'
            ? Closed<S[K]>
            : S[K];
      }>
    : S;

type CloseObject<S> = S extends { readonly type: 'object'; readonly properties: object }
  ? S extends { readonly additionalProperties: unknown }
    ? S
    : S & { readonly additionalProperties: false }
  : S;

/** request_id is added to every answer by the app (src/http/app.ts), not by the handler. */
type WithoutRequestId<T> = T extends object ? (T extends readonly unknown[] ? T : Omit<T, 'request_id'>) : T;

/**
 * What a handler answers for a response schema: the schema's type (a field with a default is not promised:
 * defaults describe requests), less the request_id the app adds. A schema typed only as JsonSchema gives
 * unknown, which Known refuses.
 */
export type Answer<S> = [S] extends [never]
  ? never
  : Closed<S> extends infer C extends JSONSchema
    ? WithoutRequestId<FromSchema<C, { keepDefaultedPropertiesOptional: true }>>
    : unknown;

/** A derived type that is any or unknown is refused: the route says why its schema cannot be read instead. */
export type Known<T> = 0 extends 1 & T
  ? 'the response type collapsed to any'
  : unknown extends T
    ? 'the response type collapsed to unknown'
    : T;
