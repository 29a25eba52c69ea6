// Frees a claim whose request failed unexpectedly, so the client may retry with the same key.
MATCH (r:IdempotencyRecord {scope_key: $scope_key, token: $token})
DELETE r
