// Stores the first response for replay. response_json is an opaque cached HTTP body, not graph data.
MATCH (r:IdempotencyRecord {scope_key: $scope_key, token: $token})
SET r.state = 'completed', r.status = $status, r.response_json = $response_json, r.completed_at = datetime()
