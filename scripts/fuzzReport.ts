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
  /**
   * In a stateful scenario, the earlier request of the operation the check blames (the DELETE a read
   * followed for use_after_free, the POST that created what a read missed for
   * ensure_resource_availability): method, URI and body. Empty when there is none.
   */
  trigger: string;
}

export interface BaselineEntry {
  check: string;
  operation: string;
  match?: string;
  /** Text the trigger (see Failure) must contain, whitespace ignored: e.g. the DELETE's apply=false. */
  trigger_match?: string;
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

interface RecordedCase {
  value?: { method?: string; path?: string };
  parent_id?: string;
}

interface Recorder {
  label: string;
  cases?: Record<string, RecordedCase>;
  checks?: Record<string, CheckResult[]>;
  interactions?: Record<string, Interaction>;
}

const decode = (value: { $base64?: string } | undefined): string =>
  value?.$base64 ? Buffer.from(value.$base64, 'base64').toString('utf8') : '';

const requestText = (interaction: Interaction | undefined): string =>
  interaction ? `${interaction.request.method} ${interaction.request.uri} ${decode(interaction.request.body)}` : '';

/** The nearest earlier case of the scenario whose operation is the one the failure names. */
function triggerOf(recorder: Recorder, caseId: string, operation: string): string {
  const cases = recorder.cases ?? {};
  for (let id = cases[caseId]?.parent_id; id; id = cases[id]?.parent_id) {
    const value = cases[id]?.value;
    if (value && `${value.method?.toUpperCase()} ${value.path}` === operation)
      return requestText(recorder.interactions?.[id]);
  }
  return '';
}

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
            request: requestText(interaction).slice(0, 400),
            // Whole, not cut like request: an entry's trigger_match (the body's apply) may stand anywhere in it.
            trigger: triggerOf(recorder, caseId, check.failure_info.failure.operation),
          };
          const key = `${failure.check} ${failure.operation} ${failure.status} ${failure.response.replace(/"request_id":"[^"]*"/, '')} ${failure.trigger}`;
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
    (entry.match === undefined || failure.response.includes(entry.match) || failure.request.includes(entry.match)) &&
    (entry.trigger_match === undefined ||
      failure.trigger.replace(/\s+/g, '').includes(entry.trigger_match.replace(/\s+/g, '')))
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
    const after = f.trigger ? `\n      after: ${f.trigger.slice(0, 400)}` : '';
    const line = `${f.check} (${f.code}) ${f.operation} -> ${f.status ?? 'no response'}: ${f.response.slice(0, 300)}\n      request: ${f.request}${after}`;
    if (entry) accepted.push(`${f.check} ${f.operation}${entry.match ? ` [${entry.match}]` : ''}: ${entry.reason}`);
    else unexpected.push(line);
  }
  return { accepted: [...new Set(accepted)], unexpected };
}
