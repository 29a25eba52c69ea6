// How the API key adding a document is shown (addedByName): its name, or for an unnamed key its
// public prefix gks_<lookup> (stable, and not a secret).
MATCH (k:ApiKey {id: $key_id})
RETURN coalesce(k.name, 'gks_' + k.lookup) AS name
