// Compiles each route's JSON Schemas once with ajv and reports every failure as a field problem
// with a JSON pointer (/body/memories/3/kind) and a reason.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError, type FieldProblem } from '../errors/catalogue.js';
import type { JsonSchema } from './route.js';

// ajv-formats ships CommonJS; its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes, useDefaults: true });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

export type Validator = (value: unknown) => void;

export function compile(schema: JsonSchema, where: 'body' | 'query' | 'params'): Validator {
  const validate: ValidateFunction = (where === 'body' ? bodyAjv : queryAjv).compile(schema);
  return (value) => {
    if (!validate(value)) throw validationError(validate.errors ?? [], where);
  };
}

export function validationError(errors: ErrorObject[], where: string): ApiError {
  const fields: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    let field = `/${where}${e.instancePath}`;
    let reason = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field += `/${String(e.params.missingProperty)}`;
      reason = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field += `/${String(e.params.additionalProperty)}`;
      reason = 'is not a known field';
    } else if (e.keyword === 'enum') {
      reason = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    const key = `${field} ${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push({ field, reason });
  }
  const first = fields[0];
  const message = first ? `${first.field.replace(/^\/(body|query|params)\/?/, '') || where}: ${first.reason}` : 'invalid request';
  return new ApiError('invalid_request', fields.length > 1 ? `${message} (and ${fields.length - 1} more)` : message, { fields });
}
