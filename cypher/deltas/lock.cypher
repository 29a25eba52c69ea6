// Takes the delta's write lock before reading its status, so of two concurrent applies (or an apply
// and a reject) the second sees the first one's outcome.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
SET d.lock_token = $token
WITH d
RETURN d.status AS status, d.applied_at AS applied_at
