// Removes a sync run whose workflow never started (its fresh delta goes with it).
MATCH (y:Sync {id: $sync_id})
OPTIONAL MATCH (d:Delta {id: y.delta_id, status: 'staged'}) WHERE $remove_delta AND NOT EXISTS { (d)-[:CREATED|HAS_CHANGE]->() }
DETACH DELETE y, d
