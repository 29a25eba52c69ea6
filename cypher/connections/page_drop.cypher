// Drops a sync run's buffered pages once staged (or when the run ends).
MATCH (p:SyncPage {sync_id: $sync_id})
USING INDEX SEEK p:SyncPage(sync_id, page_no)
WHERE p.page_no IS NOT NULL AND ($page_no IS NULL OR p.page_no <= $page_no)
DELETE p
