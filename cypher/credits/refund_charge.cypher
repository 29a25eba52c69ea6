// Gives back a charge whose work failed (the LLM endpoint did not answer): balance restored and a
// refund entry recorded beside the charge; nothing happens a second time.
MATCH (a:CreditAccount {organization_id: $organization_id})-[:RECORDED]->(c:CreditEntry {id: $charge_id, kind: 'charge'})
SET a.lock_token = $token
WITH a, c
WHERE NOT EXISTS { MATCH (a)-[:RECORDED]->(:CreditEntry {kind: 'refund', charge_id: $charge_id}) }
SET a.balance = a.balance - c.amount, a.updated_at = datetime()
REMOVE a.lock_token
CREATE (e:CreditEntry {id: $entry_id, organization_id: $organization_id, kind: 'refund', amount: -c.amount,
                       reason: $reason, charge_id: $charge_id, request_id: c.request_id, project_id: c.project_id, balance_after: a.balance,
                       created_at: datetime()})
CREATE (a)-[:RECORDED]->(e)
RETURN a.balance AS balance
