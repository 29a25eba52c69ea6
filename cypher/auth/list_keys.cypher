// Keys without their secrets, newest first, optionally of one organization.
MATCH (k:ApiKey)
WHERE $organization_id IS NULL OR k.organization_id = $organization_id
RETURN k.id AS id, k.name AS name, k.scopes AS scopes, k.organization_id AS organization_id,
       k.project_id AS project_id, k.created_at AS created_at, k.revoked_at AS revoked_at,
       'gks_' + k.lookup + '_…' AS key_hint
ORDER BY k.created_at DESC
