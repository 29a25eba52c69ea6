// Buffers a fetched page until it is staged (records stay out of workflow history).
MERGE (p:SyncPage {sync_id: $sync_id, page_no: $page_no})
SET p.records = $records, p.next_page = $next_page, p.fetched_at = datetime($now)
RETURN p.page_no AS page_no
