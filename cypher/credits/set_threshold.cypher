// Sets (or with null clears) the organization's low-balance threshold: a loop reservation taking the
// balance from at or above it to below it emits credits.low (docs/webhooks.md).
MATCH (a:CreditAccount {organization_id: $organization_id})
SET a.low_balance_threshold = $threshold, a.updated_at = datetime()
RETURN a.balance AS balance, a.reserved AS reserved, a.low_balance_threshold AS low_balance_threshold
