// Benchmark only (bench/context.ts): each entity i RELATED_TO two others and WORKS_FOR one, by a
// multiplicative hash, so neighbourhoods of 1 and 2 hops have a few to a few dozen entities.
UNWIND range(toInteger($from), toInteger($to) - 1) AS i
MATCH (a:Knowledge {id: $prefix + 'e' + i})
MATCH (b:Knowledge {id: $prefix + 'e' + ((i * 7919 + 1) % toInteger($entities))})
MATCH (c:Knowledge {id: $prefix + 'e' + ((i * 104729 + 3) % toInteger($entities))})
CREATE (a)-[:RELATED_TO {id: $prefix + 'r1-' + i, project_id: $project_id, created_at: datetime($now)}]->(b)
CREATE (a)-[:WORKS_FOR {id: $prefix + 'r2-' + i, project_id: $project_id, created_at: datetime($now)}]->(c)
RETURN count(*) AS created
