// Reads schemathesis's NDJSON event report and compares its failures with the committed baseline
// (fuzz/baseline.json): each accepted failure names its check, its operation ("*" for any) and,
// optionally, text its response must contain; each says why it is accepted.
import fs from 'node:fs';
import path from 'node:path';

export interface Failure {
  check: string;
  code: string;
  operation: string;
  status: number | null;
  /** The response body as text (the failing request's). */
  response: string;
  request: string;
}

export interface BaselineEntry {
  check: string;
  operation: string;
  match?: string;
  reason: string;
  owner?: string;
}

export interface Baseline {
  entries: BaselineEntry[];
}

export interface RunFigures {
  failures: Failure[];
  requests: number;
  operations: number;
  byCheck: Record<string, number>;
  byStatus: Record<string, number>;
}

interface Interaction {
  request: { method: string; uri: string; body?: { $base64?: string } };
  response?: { status_code: number; content?: { $base64?: string } } | null;
}

interface CheckResult {
  name: string;
  status: string;
  failure_info?: { failure: { code: string; operation: string } };
}

interface Recorder {
  label: string;
  checks?: Record<string, CheckResult[]>;
  interactions?: Record<string, Interaction>;
}

const decode = (value: { $base64?: string } | undefined): string =>
  value?.$base64 ? Buffer.from(value.$base64, 'base64').toString('utf8') : '';

export function readFailures(dir: string): RunFigures {
  const figures: RunFigures = { failures: [], requests: 0, operations: 0, byCheck: {}, byStatus: {} };
  if (!fs.existsSync(dir)) return figures;
  const operations = new Set<string>();
  const seen = new Set<string>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ndjson'))) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"ScenarioFinished"')) continue;
      const recorder = (JSON.parse(line) as { ScenarioFinished: { recorder: Recorder } }).ScenarioFinished.recorder;
      const interactions = recorder.interactions ?? {};
      if (/^[A-Z]+ \//.test(recorder.label)) operations.add(recorder.label);
      for (const interaction of Object.values(interactions)) {
        figures.requests += 1;
        const status = String(interaction.response?.status_code ?? 'none');
        figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      }
      for (const [caseId, checks] of Object.entries(recorder.checks ?? {})) {
        for (const check of checks) {
          if (check.status !== 'failure' || !check.failure_info) continue;
          const interaction = interactions[caseId];
          const failure: Failure = {
            check: check.name,
            code: check.failure_info.failure.code,
            operation: check.failure_info.failure.operation,
            status: interaction?.response?.status_code ?? null,
            response: decode(interaction?.response?.content ?? undefined),
            request: interaction
              ? `${interaction.request.method} ${interaction.request.uri} ${decode(interaction.request.body)}`.slice(
                  0,
                  400,
                )
              : '',
          };
          const key = `${failure.check} ${failure.operation} ${failure.status} ${failure.response.replace(/"request_id":"[^"]*"/, '')}`;
          if (seen.has(key)) continue;
          seen.add(key);
          figures.byCheck[failure.check] = (figures.byCheck[failure.check] ?? 0) + 1;
          figures.failures.push(failure);
        }
      }
    }
  }
  figures.operations = operations.size;
  return figures;
}

export function accepts(entry: BaselineEntry, failure: Failure): boolean {
  return (
    entry.check === failure.check &&
    (entry.operation === '*' || entry.operation === failure.operation) &&
    (entry.match === undefined || failure.response.includes(entry.match) || failure.request.includes(entry.match))
  );
}

export function compareWithBaseline(
  failures: Failure[],
  baseline: Baseline,
): { accepted: string[]; unexpected: string[] } {
  const accepted: string[] = [];
  const unexpected: string[] = [];
  for (const f of failures) {
    const entry = baseline.entries.find((e) => accepts(e, f));
    const line = `${f.check} (${f.code}) ${f.operation} -> ${f.status ?? 'no response'}: ${f.response.slice(0, 300)}\n      request: ${f.request}`;
    if (entry) accepted.push(`${f.check} ${f.operation}${entry.match ? ` [${entry.match}]` : ''}: ${entry.reason}`);
    else unexpected.push(line);
  }
  return { accepted: [...new Set(accepted)], unexpected };
}
