// The credit ledger per organization: a CreditAccount balance and one CreditEntry per movement.
// Loops reserve, settle and refund through here (see loops); grants come from the gks CLI.
import crypto from 'node:crypto';
import type { Graph } from '../db/graph.js';

export async function grantCredits(
  graph: Graph,
  organizationId: string,
  amount: number,
  reason: string,
): Promise<{ balance: number; entry_id: string }> {
  if (!Number.isFinite(amount) || amount <= 0) throw new Error('amount must be a positive number');
  const row = await graph.write((tx) =>
    tx.one('credits/grant', { organization_id: organizationId, amount, reason, id: crypto.randomUUID() }),
  );
  if (!row) throw new Error(`organization ${organizationId} has no credit account (does it exist?)`);
  return { balance: Number(row.balance), entry_id: String(row.entry_id) };
}
