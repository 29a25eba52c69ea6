CREATE CONSTRAINT idempotency_scope_key IF NOT EXISTS FOR (r:IdempotencyRecord) REQUIRE r.scope_key IS UNIQUE;
