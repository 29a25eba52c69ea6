// Test and fuzz mode only: checks every response the app actually sends against the published
// OpenAPI document (the status must be declared for the operation, the body must match that
// status's schema) and records each violation, plus which operations were exercised. The tests'
// root hook and `npm run fuzz` fail on any recorded violation. Nothing is checked in production.
import { Ajv, type ValidateFunction } from 'ajv';
import { addFormats } from '../shared/ajvFormats.js';
import type { RouteSpec } from './route.js';
import { buildOpenApi } from './openapi.js';

export interface Violation {
  operation: string;
  status: number;
  problem: string;
  body: string;
  /** Set by the test runner: the test during which the response was sent. */
  test?: string;
}

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };

export class ResponseAudit {
  readonly violations: Violation[] = [];
  checked = 0;
  /** operationId -> statuses seen. */
  readonly seen = new Map<string, Set<number>>();
  private readonly operations = new Map<string, { route: RouteSpec; op: Operation; pointer: string }>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });

  constructor() {
    addFormats(this.ajv);
  }

  /** Called by buildApp with the routes it serves. */
  attach(routes: RouteSpec[]): void {
    const document = buildOpenApi(routes) as { paths: Record<string, Record<string, Operation>> };
    this.ajv.removeSchema('openapi');
    this.validators.clear();
    this.ajv.addSchema({ $id: 'openapi', ...document });
    for (const route of routes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = document.paths[path]?.[route.method];
      const pointer = `openapi#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${route.method}`;
      if (op) this.operations.set(route.operationId, { route, op, pointer });
    }
  }

  check(operationId: string, status: number, body: unknown): void {
    const entry = this.operations.get(operationId);
    if (!entry) return;
    this.checked += 1;
    const statuses = this.seen.get(operationId) ?? new Set<number>();
    statuses.add(status);
    this.seen.set(operationId, statuses);
    const operation = `${entry.route.method.toUpperCase()} ${entry.route.path}`;
    const response = entry.op.responses[String(status)];
    const text = JSON.stringify(body ?? null).slice(0, 600);
    if (!response) {
      this.violations.push({ operation, status, problem: `status ${status} is not declared`, body: text });
      return;
    }
    if (!response.content?.['application/json']) return;
    const key = `${operationId} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${entry.pointer}/responses/${status}/content/application~1json/schema` });
      this.validators.set(key, validate);
    }
    if (!validate(body)) {
      const problem = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
        .join('; ');
      this.violations.push({ operation, status, problem, body: text });
    }
  }

  /** Operations that never answered a declared success status. */
  unexercised(): string[] {
    const out: string[] = [];
    for (const [id, { route }] of this.operations) {
      const seen = this.seen.get(id) ?? new Set<number>();
      const successes = [route.status, ...(route.alsoResponds ?? []).map((r) => r.status)];
      if (!successes.some((s) => seen.has(s))) out.push(`${route.method.toUpperCase()} ${route.path}`);
    }
    return out;
  }

  summary(): string {
    const lines = this.violations.map(
      (v) =>
        `  ${v.operation} -> ${v.status}: ${v.problem}${v.test ? `\n    test: ${v.test}` : ''}\n    body: ${v.body}`,
    );
    const listed = lines.length ? `:\n${lines.join('\n')}` : '';
    return `${this.violations.length} response(s) violate the published schemas${listed}`;
  }
}

let active: ResponseAudit | undefined;

/** Turns the audit on for every app built afterwards in this process (tests, fuzzing). */
export function startResponseAudit(): ResponseAudit {
  active ??= new ResponseAudit();
  return active;
}

export function responseAudit(): ResponseAudit | undefined {
  return active;
}
