// Updates a sync run (status, run ids, progress) by id.
MATCH (y:Sync {id: $sync_id})
SET y += $set
RETURN y {.*} AS sync
