// An organization's credit balance with its most recent ledger entries, newest first. With a
// $project_id (a project key), only the entries of that project's loops and briefings: grants and other
// projects' movements are the organization's business.
MATCH (a:CreditAccount {organization_id: $organization_id})
OPTIONAL MATCH (a)-[:RECORDED]->(e:CreditEntry)
WHERE $project_id IS NULL OR e.project_id = $project_id
   OR EXISTS { MATCH (l:Loop {id: e.loop_id}) USING INDEX l:Loop(id) WHERE l.project_id = $project_id }
WITH a, e ORDER BY e.created_at DESC
WITH a, collect(e)[0..toInteger($limit)] AS entries
RETURN a.balance AS balance, a.reserved AS reserved, a.low_balance_threshold AS low_balance_threshold,
       [e IN entries | {id: e.id, kind: e.kind, amount: e.amount, reason: e.reason, loop_id: e.loop_id,
                        balance_after: e.balance_after, created_at: e.created_at}] AS entries
