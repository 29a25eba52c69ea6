// Benchmark only (bench/context.ts): committed entities for numbers $from..$to-1 of one project,
// Person / Organization / Concept in turn, named and described by the given words.
UNWIND $rows AS r
WITH r {.*, i: toInteger(r.i), subject: toInteger(r.subject)} AS row
WITH row, ['Person', 'Organization', 'Concept'][row.i % 3] AS label
CREATE (e:Knowledge:Entity:$(label))
SET e.id = $prefix + 'e' + row.i, e.project_id = $project_id, e.name = row.name, e.normalized_name = toLower(row.name),
    e.description = row.description, e.type = label, e.tenant = $tenant,
    e.identity_key = $project_id + '|' + label + '|' + toLower(row.name),
    e.created_at = datetime($now) - duration({minutes: row.i}), e.updated_at = datetime($now)
RETURN count(e) AS created
