// The name of the API key adding a document (shown as addedByName; null for unnamed keys).
MATCH (k:ApiKey {id: $key_id})
RETURN k.name AS name
