// A fragment, not a statement: a project's terms as the exact compare of the hops by meaning reads them (docs/recall.md,
// "Hops by meaning"), rows `few`: its first $exact_up_to + 1 terms in key order, so that more than $exact_up_to says
// the project is too large to compare exactly. Found by the terms' (project_id, key) index (term_key): the key's
// IS NOT NULL lets the composite index seek on the project alone; without it every term of every project was scanned.
// Included by memories/held_terms (walk_near's exact compare), memories/term_vectors (the vectors the service holds)
// and memories/walk_held (its check that they are still the project's), so all three read the same terms.
MATCH (few:Term) USING INDEX few:Term(project_id, key)
WHERE few.project_id = $project_id AND few.key IS NOT NULL
WITH few ORDER BY few.key LIMIT toInteger($exact_up_to) + 1
