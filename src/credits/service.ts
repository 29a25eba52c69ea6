// The credit ledger per organization: a CreditAccount balance and one CreditEntry per movement.
// Loops reserve, settle and refund through here (see loops); briefings by the configured LLM are
// charged per call (chargedCall); grants come from the gks CLI.
import crypto from 'node:crypto';
import type { Graph, Tx } from '../db/graph.js';
import { ApiError } from '../errors/catalogue.js';

/** What the credits statements return of the account (reserved and the threshold where they say so). */
interface AccountRow {
  balance: number;
  reserved: number | null;
  low_balance_threshold: number | null;
  entry_id: string;
}

export async function grantCredits(
  graph: Graph,
  organizationId: string,
  amount: number,
  reason: string,
): Promise<{ balance: number; entry_id: string }> {
  if (!Number.isFinite(amount) || amount <= 0) throw new Error('amount must be a positive number');
  const row = await graph.write((tx) =>
    tx.one<Pick<AccountRow, 'balance' | 'entry_id'>>('credits/grant', {
      organization_id: organizationId,
      amount,
      reason,
      id: crypto.randomUUID(),
    }),
  );
  if (!row) throw new Error(`organization ${organizationId} has no credit account (does it exist?)`);
  return { balance: row.balance, entry_id: row.entry_id };
}

/**
 * Runs work that spends the configured LLM (a briefing), charging the organization first: 402
 * credits_exhausted when the balance is short, nothing charged when the work fails (refunded).
 */
export async function chargedCall<T>(
  graph: Graph,
  charge: { organizationId: string; projectId: string; amount: number; reason: string; requestId: string },
  work: () => Promise<T>,
): Promise<T> {
  if (charge.amount <= 0) return work();
  const chargeId = crypto.randomUUID();
  const charged = await graph.write((tx) =>
    tx.one('credits/charge', {
      organization_id: charge.organizationId,
      amount: charge.amount,
      token: crypto.randomUUID(),
      entry_id: chargeId,
      reason: charge.reason,
      request_id: charge.requestId,
      project_id: charge.projectId,
    }),
  );
  if (!charged) {
    throw new ApiError(
      'credits_exhausted',
      `The organization lacks the ${charge.amount} credit(s) a briefing by the configured LLM costs.`,
      { credits_needed: charge.amount },
    );
  }
  try {
    return await work();
  } catch (error) {
    await graph.write((tx) =>
      tx.run('credits/refund_charge', {
        organization_id: charge.organizationId,
        charge_id: chargeId,
        token: crypto.randomUUID(),
        entry_id: crypto.randomUUID(),
        reason: `refund: ${charge.reason} failed`,
      }),
    );
    throw error;
  }
}

/**
 * Reserves a loop's estimate in the caller's transaction (the loop's own write), so the loop and its
 * reservation commit together. Null when the balance is short; else the balance after it and the
 * organization's low-balance threshold (null: off), for credits.low.
 */
export async function reserveForLoop(
  tx: Tx,
  organizationId: string,
  loopId: string,
  amount: number,
): Promise<{ balance: number; lowBalanceThreshold: number | null } | null> {
  const row = await tx.one<Pick<AccountRow, 'balance' | 'low_balance_threshold'>>('credits/reserve', {
    organization_id: organizationId,
    amount,
    token: crypto.randomUUID(),
    entry_id: crypto.randomUUID(),
    loop_id: loopId,
    reason: `reserved for loop ${loopId}`,
  });
  if (row === undefined) return null;
  return { balance: row.balance, lowBalanceThreshold: row.low_balance_threshold ?? null };
}

/** Sets (null: clears) the organization's low-balance threshold; undefined when it has no credit account. */
export async function setLowBalanceThreshold(
  graph: Graph,
  organizationId: string,
  threshold: number | null,
): Promise<{ balance: number; reserved: number; low_balance_threshold: number | null } | undefined> {
  const row = await graph.write((tx) =>
    tx.one<Omit<AccountRow, 'entry_id'>>('credits/set_threshold', { organization_id: organizationId, threshold }),
  );
  if (!row) return undefined;
  return {
    balance: row.balance ?? 0,
    reserved: row.reserved ?? 0,
    low_balance_threshold: row.low_balance_threshold ?? null,
  };
}

/** Settles a loop's reservation once (real cost kept, the rest refunded); true when this call settled it. */
export async function settleLoop(
  tx: Tx,
  settlement: { organizationId: string; loopId: string; reserved: number; spent: number; reason: string },
): Promise<boolean> {
  const row = await tx.one('credits/settle', {
    organization_id: settlement.organizationId,
    loop_id: settlement.loopId,
    reserved: settlement.reserved,
    spent: settlement.spent,
    token: crypto.randomUUID(),
    entry_id: crypto.randomUUID(),
    reason: settlement.reason,
  });
  return row?.reserved === true && row.already_settled !== true;
}

/** Undoes the reservation of a loop that never started (its dispatch failed). */
export async function cancelLoopReservation(tx: Tx, organizationId: string, loopId: string): Promise<void> {
  await tx.run('credits/cancel_reservation', { organization_id: organizationId, loop_id: loopId });
}

/** The organization's balance and reservations with its newest ledger entries (a project key: its own). */
/** A ledger entry as credits/balance lists it (declared, not checked). */
export interface CreditEntry {
  id: string;
  kind: 'grant' | 'reserve' | 'settle' | 'refund' | 'charge';
  amount: number;
  reason: string | null;
  loop_id: string | null;
  balance_after: number;
  created_at: string;
}

/** What credits/balance returns: the account's balance, held credits, threshold and recent entries. */
interface BalanceRow {
  balance: number | null;
  reserved: number | null;
  low_balance_threshold: number | null;
  entries: CreditEntry[] | null;
}

export async function creditBalance(
  graph: Graph,
  organizationId: string,
  projectId: string | null,
  limit: number,
): Promise<{ balance: number; reserved: number; low_balance_threshold: number | null; entries: CreditEntry[] }> {
  const row = await graph.read((tx) =>
    tx.one<BalanceRow>('credits/balance', { organization_id: organizationId, project_id: projectId, limit }),
  );
  return {
    balance: row?.balance ?? 0,
    reserved: row?.reserved ?? 0,
    low_balance_threshold: row?.low_balance_threshold ?? null,
    entries: row?.entries ?? [],
  };
}
