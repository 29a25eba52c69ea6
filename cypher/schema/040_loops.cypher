CREATE CONSTRAINT loop_id IF NOT EXISTS FOR (l:Loop) REQUIRE l.id IS UNIQUE;
CREATE INDEX credit_entry_loop IF NOT EXISTS FOR (e:CreditEntry) ON (e.loop_id);
