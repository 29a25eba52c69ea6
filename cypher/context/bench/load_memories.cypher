// Benchmark only (bench/context.ts): committed memories with the given contents, each about one
// entity (HAS_SUBJECT), created a minute apart so recency orders them.
UNWIND $rows AS r
WITH r {.*, i: toInteger(r.i), subject: toInteger(r.subject)} AS row
MATCH (s:Knowledge {id: $prefix + 'e' + row.subject})
CREATE (m:Knowledge:Memory)
SET m.id = $prefix + 'm' + row.i, m.project_id = $project_id, m.kind = ['fact', 'decision', 'observation', 'lesson'][row.i % 4],
    m.scope = 'project', m.content = row.content, m.name = row.name, m.memory_schema = 'gks.memory/v1', m.tenant = $tenant,
    m.date_observed = date(), m.subject_name = s.name,
    m.created_at = datetime($now) - duration({minutes: row.i}), m.updated_at = datetime($now)
CREATE (m)-[:HAS_SUBJECT {id: $prefix + 's' + row.i, project_id: $project_id, created_at: datetime($now)}]->(s)
RETURN count(m) AS created
