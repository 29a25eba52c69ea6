// Adds credits to an organization's account and records a ledger entry.
MATCH (a:CreditAccount {organization_id: $organization_id})
SET a.balance = a.balance + $amount, a.updated_at = datetime()
CREATE (e:CreditEntry {id: $id, organization_id: $organization_id, kind: 'grant', amount: $amount,
                       reason: $reason, balance_after: a.balance, created_at: datetime()})
CREATE (a)-[:RECORDED]->(e)
RETURN a.balance AS balance, e.id AS entry_id
