// Drops a sync run's buffered pages once staged (or when the run ends).
MATCH (p:SyncPage {sync_id: $sync_id})
WHERE $page_no IS NULL OR p.page_no <= $page_no
DELETE p
