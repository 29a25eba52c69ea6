// Memories near a question by their context (vector index memory_context_embedding, cosine: docs/recall.md,
// "Context"): the vector of the text of the memory before it in its episode and its own, so a reply is found by what
// it answers. Otherwise as memories/vector. The index spans every
// project, so it is asked for $k neighbours, which are filtered here to the project's committed,
// still-recallable memories valid at $valid_at (as_of, else now; docs/facts.md) with a vector of the current model and a cosine of at least
// $min_similarity (the index's score is (1 + cos) / 2). One row: how many neighbours the index gave,
// the cosine of the farthest (so the caller knows whether asking deeper can find more), and the hits.
// A hit carries only what ranking reads (id, name, content); the answer's memories are read whole once
// the rankings are fused, by memories/answered (recall) or search/answered (/v1/search), as for memories/search.
// $links: each hit carries what recall's channels read beside its text (memories/candidate_links).
// The $k nearest: compared exactly in a project of at most $exact_up_to memories, else the index's.
// include: memories/held_contexts
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND NOT node:Pending AND node.embedding_model = $model
      AND 2 * score - 1 >= $min_similarity
      AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
      AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
      AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
      AND ($kinds IS NULL OR node.kind IN $kinds)
      AND ($episode IS NULL OR node.episode = $episode)
    THEN {id: node.id, similarity: 2 * score - 1,
          memory: node {.id, .name, .content},
          links:
// include: memories/candidate_links
         } END) AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
