// The clients of a chaos run (broad.chaos.ts, governance.chaos.ts): weighted random requests, 60% applied at
// once, sent by several clients for a time and tallied by answer; a 5xx is kept with the service's error lines
// of its request, so a failing run says what broke.
import type { Reply } from '../support/api.js';

/** One kind of request: how often it is sent, and the list its 201s add to. */
export interface ChaosOp {
  name: string;
  weight: number;
  /** null when there is nothing to send it to yet. */
  send(apply: boolean): Promise<Reply | null> | null;
  adds?: string[];
}

export interface ChaosOutcome {
  tally: Map<string, number>;
  serverErrors: string[];
}

/** Runs `clients` clients for `seconds`; every delta id answered is pushed onto `deltas` (for review ops). */
export async function runClients(
  ops: readonly ChaosOp[],
  options: { clients: number; seconds: number; deltas: string[] },
): Promise<ChaosOutcome> {
  const tally = new Map<string, number>();
  const serverErrors: string[] = [];
  const total = ops.reduce((sum, op) => sum + op.weight, 0);
  const step = async (): Promise<void> => {
    let roll = Math.random() * total;
    const op = ops.find((o) => (roll -= o.weight) < 0) ?? ops[0]!;
    const reply = await op.send(Math.random() < 0.6);
    if (reply === null) return;
    const key = `${op.name}: ${reply.status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (reply.status === 201 && op.adds) op.adds.push(reply.body.id as string);
    if (typeof reply.body?.delta_id === 'string') options.deltas.push(reply.body.delta_id);
    if (reply.status >= 500) serverErrors.push(`${op.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
  };
  const deadline = Date.now() + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (Date.now() < deadline) await step();
    }),
  );
  return { tally, serverErrors };
}

/** Prints the tally and, for each 5xx, the service's error lines (`logLines`) of its request. */
export function report(outcome: ChaosOutcome, logLines: readonly string[]): void {
  console.log(
    [...outcome.tally.entries()]
      .sort()
      .map(([k, v]) => `      ${k} x ${v}`)
      .join('\n'),
  );
  for (const failure of outcome.serverErrors) {
    const requestId = /"request_id":"([^"]+)"/.exec(failure)?.[1];
    for (const line of logLines.filter((l) => requestId && l.includes(requestId) && l.includes('"level":50')))
      console.log(line.slice(0, 4000));
  }
}
