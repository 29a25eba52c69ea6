// The vectors of a small project's terms, for the hops by meaning to compare with a question in process
// (src/memories/termVectors.ts; docs/recall.md, "Hops by meaning"): each term with a vector of $model, by key, with
// its kind; none, and `large` true, when the project holds more than $exact_up_to terms (the vector index then
// answers: memories/walk_near). The terms are memories/project_terms', as the walk's check reads them.
// include: memories/project_terms
WITH collect(few) AS few
RETURN size(few) > $exact_up_to AS large,
       [n IN few WHERE size(few) <= $exact_up_to AND n.embedding_model = $model AND n.embedding IS NOT NULL
        | {key: n.key, kind: n.kind, vector: n.embedding}] AS held
