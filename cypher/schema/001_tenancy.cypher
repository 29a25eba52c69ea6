// Organizations, projects and API keys: identities are unique.
CREATE CONSTRAINT organization_id IF NOT EXISTS FOR (o:Organization) REQUIRE o.id IS UNIQUE;
CREATE CONSTRAINT project_id IF NOT EXISTS FOR (p:Project) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_lookup IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.lookup IS UNIQUE;
CREATE CONSTRAINT credit_account_org IF NOT EXISTS FOR (a:CreditAccount) REQUIRE a.organization_id IS UNIQUE;
