// Of the node ids a check's row names, those no longer in the graph. A row whose message came out empty
// was built while a concurrent write deleted one of its nodes (its properties then read as null); the
// audit reads again instead of failing (src/preflight/checks.ts, runChecks).
UNWIND $ids AS id
OPTIONAL MATCH (n:Knowledge {id: id})
         USING INDEX n:Knowledge(id)
WITH id, n
WHERE n IS NULL
RETURN collect(id) AS missing
