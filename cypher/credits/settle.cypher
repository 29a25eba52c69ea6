// Settles a loop's reservation once: the real cost is kept, the rest refunded. Nothing happens
// without a reservation (an abandoned dispatch), or a second time (a retried activity).
MATCH (a:CreditAccount {organization_id: $organization_id})
SET a.lock_token = $token
WITH a
OPTIONAL MATCH (a)-[:RECORDED]->(reserve:CreditEntry {loop_id: $loop_id, kind: 'reserve'})
USING INDEX SEEK reserve:CreditEntry(loop_id)
OPTIONAL MATCH (a)-[:RECORDED]->(done:CreditEntry {loop_id: $loop_id, kind: 'settle'})
USING INDEX SEEK done:CreditEntry(loop_id)
WITH a, reserve, done
CALL (a, reserve, done) {
  WITH a, reserve, done WHERE reserve IS NOT NULL AND done IS NULL
  SET a.reserved = coalesce(a.reserved, 0) - $reserved, a.balance = a.balance + ($reserved - $spent), a.updated_at = datetime()
  CREATE (e:CreditEntry {id: $entry_id, organization_id: $organization_id, kind: 'settle', amount: $reserved - $spent,
                         reason: $reason, loop_id: $loop_id, spent: $spent, balance_after: a.balance, created_at: datetime()})
  CREATE (a)-[:RECORDED]->(e)
}
REMOVE a.lock_token
RETURN a.balance AS balance, done IS NOT NULL AS already_settled, reserve IS NOT NULL AS reserved
