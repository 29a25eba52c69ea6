// Undoes a reservation whose loop never started (dispatch failed): balance restored, entry removed.
MATCH (a:CreditAccount {organization_id: $organization_id})-[:RECORDED]->(e:CreditEntry {loop_id: $loop_id, kind: 'reserve'})
SET a.balance = a.balance - e.amount, a.reserved = coalesce(a.reserved, 0) + e.amount, a.updated_at = datetime()
DETACH DELETE e
RETURN a.balance AS balance
