// The requested sources that are committed documents of the project, with their size.
UNWIND range(0, size($source_ids) - 1) AS i
OPTIONAL MATCH (s:Document:Knowledge {id: $source_ids[i]})
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id AND NOT s:Pending
RETURN i AS index, $source_ids[i] AS id, s IS NOT NULL AS found, s.title AS title, coalesce(s.char_count, 0) AS characters
ORDER BY i
