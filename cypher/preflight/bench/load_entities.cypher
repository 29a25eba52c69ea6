// Benchmark only (bench/preflight.ts): committed entities of the general shape for node numbers
// $from..$to-1 of one project: n % 10 = 0 is a Concept, 1 and 2 a Person (others are memories).
UNWIND range(toInteger($from), toInteger($to) - 1) AS i
WITH i, CASE i % 10 WHEN 0 THEN 'Concept' WHEN 1 THEN 'Person' WHEN 2 THEN 'Person' END AS label
WHERE label IS NOT NULL
CREATE (e:Knowledge:Entity:$(label))
SET e.id = $prefix + i, e.project_id = $project_id, e.name = label + ' ' + i, e.normalized_name = toLower(label) + ' ' + i,
    e.type = label, e.shape_id = $shape_id, e.tenant = $tenant,
    e.identity_key = $project_id + '|' + label + '|' + toLower(label) + ' ' + i,
    e.created_at = datetime($now), e.updated_at = datetime($now)
RETURN count(e) AS created
