// Locks the sync run and reads its buffered page (absent when that page was already staged).
MATCH (y:Sync {id: $sync_id})
SET y.lock_token = $token
WITH y
OPTIONAL MATCH (p:SyncPage {sync_id: y.id, page_no: $page_no})
RETURN y {.*} AS sync, p.records AS records, p.next_page AS next_page
