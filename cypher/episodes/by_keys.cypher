// The committed episodes of the project named by $keys (a memory write links its memories to them; a key with no
// committed episode is created in the write's delta).
UNWIND $keys AS key
MATCH (e:Episode)
USING INDEX e:Episode(project_id, key)
WHERE e.project_id = $project_id AND e.key = key AND NOT e:Pending
RETURN e.id AS id, e.key AS key
