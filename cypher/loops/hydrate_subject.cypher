// hydrate: the subject entity and its committed neighbourhood up to $depth (1 or 2) hops.
MATCH (e:Entity {project_id: $project_id, normalized_name: $subject})
USING INDEX SEEK e:Entity(project_id, normalized_name)
WHERE NOT e:Pending
MATCH p = (e)-[*0..2]-(n:Knowledge)
WHERE length(p) <= $depth AND n.project_id = $project_id AND NOT n:Pending
  AND all(r IN relationships(p) WHERE r.pending IS NULL)
WITH n, min(length(p)) AS hops
RETURN n.id AS id, 'neighbourhood' AS plane, 1.0 / (1 + hops) AS score,
       coalesce(n.name, n.content, n.title, '') AS text, hops
ORDER BY hops, id
LIMIT toInteger($limit)
