// Compiles each route's JSON Schemas once with ajv and reports every failure as a field problem
// with a JSON pointer (/body/memories/3/kind) and a reason.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { addFormats } from '../shared/ajvFormats.js';
import { ApiError, type ErrorCode, type FieldProblem } from '../errors/catalogue.js';
import type { JsonSchema } from './route.js';

function makeAjv(coerceTypes: boolean): Ajv {
  // verbose: errors carry their schema, so an `x-reason` annotation can word a cross-field rule.
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes, useDefaults: true, verbose: true });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

export type Validator = (value: unknown) => void;

/**
 * A published rule the handler checks itself (to report it together with rules JSON Schema cannot
 * state) is an allOf entry marked x-checked-by-handler: ajv leaves it out.
 */
export const HANDLER_RULE = 'x-checked-by-handler';

function withoutHandlerRules(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHandlerRules);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'allOf' && Array.isArray(child)) {
      const kept = child.filter(
        (entry) => !(entry && typeof entry === 'object' && (entry as Record<string, unknown>)[HANDLER_RULE] === true),
      );
      if (kept.length > 0) out.allOf = kept.map(withoutHandlerRules);
    } else {
      out[key] = withoutHandlerRules(child);
    }
  }
  return out;
}

/**
 * How a number is written in a query string or path. ajv coerces with JavaScript's Number, which also takes what
 * no client means as a number ("4\t", " 4", "0x10", "1e1" for an integer): those are refused as the type they are.
 */
const NUMBER_TEXT = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/ } as const;

/** The top-level properties of a query or path schema typed integer or number, by name. */
function numericProperties(schema: JsonSchema): [string, keyof typeof NUMBER_TEXT][] {
  const properties = ((schema as Record<string, unknown>).properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.entries(properties).flatMap(([name, property]) => {
    const types = [property?.type].flat();
    const kind = types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : null;
    return kind ? [[name, kind] as [string, keyof typeof NUMBER_TEXT]] : [];
  });
}

export function compile(schema: JsonSchema, where: 'body' | 'query' | 'params'): Validator {
  const validate: ValidateFunction = (where === 'body' ? bodyAjv : queryAjv).compile(
    withoutHandlerRules(schema) as JsonSchema,
  );
  const numeric = where === 'body' ? [] : numericProperties(schema);
  return (value) => {
    const text = (value ?? {}) as Record<string, unknown>;
    const miswritten = numeric.filter(
      ([name, kind]) => typeof text[name] === 'string' && !NUMBER_TEXT[kind].test(text[name]),
    );
    if (miswritten.length > 0)
      throw fieldsError(
        'invalid_request',
        miswritten.map(([name, kind]) => ({ field: `/${where}/${name}`, reason: `must be ${kind}` })),
        where,
      );
    if (!validate(value)) throw validationError(validate.errors ?? [], where);
  };
}

const SUMMARY = new Set(['oneOf', 'anyOf']);

export function validationError(errors: ErrorObject[], where: string): ApiError {
  const fields: FieldProblem[] = [];
  const seen = new Set<string>();
  let code: ErrorCode = 'invalid_request';
  // oneOf/anyOf summaries only when nothing more precise was found; items tried by contains never.
  const precise = errors.some((e) => !SUMMARY.has(e.keyword));
  for (const e of errors) {
    if (e.keyword === 'if' || e.schemaPath.includes('/contains/')) continue;
    if (precise && SUMMARY.has(e.keyword)) continue;
    let field = `/${where}${e.instancePath}`;
    const annotations = (e.parentSchema ?? {}) as Record<string, unknown>;
    const annotated = annotations['x-reason'];
    // A field whose refusal has its own catalogue code (unsupported_loop_kind ...) says so with x-error-code.
    if (code === 'invalid_request' && typeof annotations['x-error-code'] === 'string')
      code = annotations['x-error-code'] as ErrorCode;
    let reason = typeof annotated === 'string' ? annotated : (e.message ?? 'is invalid');
    if (e.keyword === 'required') {
      field += `/${String(e.params.missingProperty)}`;
      if (typeof annotated !== 'string') reason = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field += `/${String(e.params.additionalProperty)}`;
      reason = 'is not a known field';
    } else if (e.keyword === 'enum' && typeof annotated !== 'string') {
      reason = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    const key = `${field} ${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push({ field, reason });
  }
  return fieldsError(code, fields, where);
}

/** The error of a request's field problems, its message naming the first (and how many more). */
function fieldsError(code: ErrorCode, fields: FieldProblem[], where: string): ApiError {
  const first = fields[0];
  const message = first
    ? `${first.field.replace(/^\/(body|query|params)\/?/, '') || where}: ${first.reason}`
    : 'invalid request';
  return new ApiError(code, fields.length > 1 ? `${message} (and ${fields.length - 1} more)` : message, { fields });
}
