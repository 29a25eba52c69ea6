// Tenancy: organizations (:TenantOrg), projects (:TenantProject) and API keys. Their labels are not
// Organization/Project so they never mix with the Organization entities knowledge engineers query.
DROP CONSTRAINT organization_id IF EXISTS;
DROP CONSTRAINT project_id IF EXISTS;
CREATE CONSTRAINT tenant_org_id IF NOT EXISTS FOR (o:TenantOrg) REQUIRE o.id IS UNIQUE;
CREATE CONSTRAINT tenant_project_id IF NOT EXISTS FOR (p:TenantProject) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_lookup IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.lookup IS UNIQUE;
CREATE CONSTRAINT credit_account_org IF NOT EXISTS FOR (a:CreditAccount) REQUIRE a.organization_id IS UNIQUE;
