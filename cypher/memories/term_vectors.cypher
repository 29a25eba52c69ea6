// The vectors of a small project's terms, for the hops by meaning to compare with a question in process
// (src/memories/termVectors.ts; docs/recall.md, "Hops by meaning"): each term with a vector of $model, by key, with
// its kind; none, and `large` true, when the project holds more than $exact_up_to terms (the vector index then
// answers: memories/walk_near). The terms are found by their (project_id, key) index, in its order.
MATCH (few:Term) USING INDEX few:Term(project_id, key)
WHERE few.project_id = $project_id AND few.key IS NOT NULL
WITH few ORDER BY few.key LIMIT toInteger($exact_up_to) + 1
WITH collect(few) AS few
RETURN size(few) > $exact_up_to AS large,
       [n IN few WHERE size(few) <= $exact_up_to AND n.embedding_model = $model AND n.embedding IS NOT NULL
        | {key: n.key, kind: n.kind, vector: n.embedding}] AS held
