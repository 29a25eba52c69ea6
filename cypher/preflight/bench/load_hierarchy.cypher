// Benchmark only (bench/preflight.ts): each Concept n (n % 10 = 0, n >= 10) is PART_OF Concept
// (n / 100) * 10, a tree about log10(size) deep.
UNWIND range(toInteger($from), toInteger($to) - 1) AS i
WITH i WHERE i % 10 = 0 AND i >= 10
MATCH (c:Knowledge {id: $prefix + i})
MATCH (parent:Knowledge {id: $prefix + (i / 100) * 10})
CREATE (c)-[:PART_OF {id: $prefix + 'p' + i, project_id: $project_id, created_at: datetime($now)}]->(parent)
RETURN count(c) AS created
