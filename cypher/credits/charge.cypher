// Charges a one-off amount (a briefing written by the configured LLM) under the account's write
// lock, so concurrent charges never overspend. Returns no row when the balance is short.
MATCH (a:CreditAccount {organization_id: $organization_id})
SET a.lock_token = $token
WITH a
WHERE a.balance >= $amount
SET a.balance = a.balance - $amount, a.updated_at = datetime()
REMOVE a.lock_token
CREATE (e:CreditEntry {id: $entry_id, organization_id: $organization_id, kind: 'charge', amount: -$amount,
                       reason: $reason, request_id: $request_id, project_id: $project_id, balance_after: a.balance, created_at: datetime()})
CREATE (a)-[:RECORDED]->(e)
RETURN a.balance AS balance
