// Benchmark only (bench/preflight.ts): committed fact memories for node numbers $from..$to-1 with
// n % 10 >= 3, each about an earlier Person (HAS_SUBJECT) and, for a third, an earlier Concept
// (HAS_OBJECT), picked by a multiplicative hash so subjects spread over the graph.
UNWIND range(toInteger($from), toInteger($to) - 1) AS i
WITH i WHERE i % 10 >= 3
WITH i, ((i * 7919) % 1000003) % i AS p0, ((i * 104729) % 1000033) % i AS o0
WITH i, p0 - p0 % 10 + 1 + i % 2 AS p, o0 - o0 % 10 AS o
MATCH (s:Knowledge {id: $prefix + p})
MATCH (x:Knowledge {id: $prefix + o})
CREATE (m:Knowledge:Memory)
SET m.id = $prefix + i, m.project_id = $project_id, m.kind = 'fact', m.scope = 'project',
    m.content = 'Fact ' + i + ': person ' + p + ' works on topic ' + o + '.', m.name = 'Fact ' + i,
    m.memory_schema = 'gks.memory/v1', m.shape_id = $memory_shape_id, m.tenant = $tenant, m.date_observed = date(),
    m.subject_name = s.name, m.predicate = 'works on', m.object_name = x.name,
    m.created_at = datetime($now), m.updated_at = datetime($now)
CREATE (m)-[:HAS_SUBJECT {id: $prefix + 's' + i, project_id: $project_id, predicate: 'works on', created_at: datetime($now)}]->(s)
FOREACH (_ IN CASE WHEN i % 3 = 0 THEN [1] ELSE [] END |
  CREATE (m)-[:HAS_OBJECT {id: $prefix + 'o' + i, project_id: $project_id, predicate: 'works on', created_at: datetime($now)}]->(x))
RETURN count(m) AS created
