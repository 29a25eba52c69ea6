CREATE (o:TenantOrg {id: $id, name: $name, created_at: datetime()})
CREATE (a:CreditAccount {organization_id: $id, balance: 0, updated_at: datetime()})
CREATE (o)-[:HAS_ACCOUNT]->(a)
RETURN o.id AS id, o.name AS name, o.created_at AS created_at
