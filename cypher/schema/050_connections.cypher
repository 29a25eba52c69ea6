// Connections: the secret is one engine-owned node per connection (never in a delta); sync runs and
// their buffered pages are engine-owned records keyed by connection and sync.
CREATE INDEX connection_project IF NOT EXISTS FOR (c:Connection) ON (c.project_id);
CREATE CONSTRAINT connection_secret_connection IF NOT EXISTS FOR (s:ConnectionSecret) REQUIRE s.connection_id IS UNIQUE;
CREATE CONSTRAINT sync_id IF NOT EXISTS FOR (s:Sync) REQUIRE s.id IS UNIQUE;
CREATE INDEX sync_connection_created IF NOT EXISTS FOR (s:Sync) ON (s.connection_id, s.created_at);
CREATE INDEX sync_page_sync IF NOT EXISTS FOR (p:SyncPage) ON (p.sync_id, p.page_no);
CREATE INDEX synced_document_source IF NOT EXISTS FOR (d:Document) ON (d.source_connection_id, d.external_id);
