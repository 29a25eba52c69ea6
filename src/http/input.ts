// Request types derived from the JSON Schemas the routes validate with (json-schema-to-ts, types only:
// nothing here runs), so a field's type is written once, in its schema.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type { JSONSchema };

/**
 * What a request part is after ajv has validated it: a field with a default is present (useDefaults fills it);
 * if/then/else and not are not read (they only narrow what the other keywords already allow).
 */
export type Input<S extends JSONSchema> = FromSchema<S>;
