// Reserves credits for a loop under the account's write lock (taken by the SET before the balance
// is read), so two concurrent starts never overspend. Returns no row when the balance is short.
// The low-balance threshold comes back so the caller can emit credits.low when this crosses it.
MATCH (a:CreditAccount {organization_id: $organization_id})
SET a.lock_token = $token
WITH a
WHERE a.balance >= $amount
SET a.balance = a.balance - $amount, a.reserved = coalesce(a.reserved, 0) + $amount, a.updated_at = datetime()
REMOVE a.lock_token
CREATE (e:CreditEntry {id: $entry_id, organization_id: $organization_id, kind: 'reserve', amount: -$amount,
                       reason: $reason, loop_id: $loop_id, balance_after: a.balance, created_at: datetime()})
CREATE (a)-[:RECORDED]->(e)
RETURN a.balance AS balance, a.low_balance_threshold AS low_balance_threshold
