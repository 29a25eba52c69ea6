// Check: duplicates.
// Detects a node the delta creates that repeats one of the same type:
//   same_identity           (error)   a new entity whose identity key (project|Label|normalised identity)
//                                     is held by a committed entity: the apply would break the
//                                     uniqueness rule on identity_key and fail;
//   same_identity_in_delta  (error)   two new entities of the delta share one identity key;
//   same_content            (warning) a new memory whose normalised content (lower case, whitespace
//                                     collapsed, one trailing . ! or ? dropped) equals a committed
//                                     memory of the project;
//   same_content_in_delta   (warning) two new memories of the delta with the same normalised content.
// Committed nodes the delta deletes do not count. Lookups: Entity.identity_key (unique),
// Entity.pending_identity_key (index), the memory_text full-text index (phrase query, tenant token).
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n:Entity)
  // The key is taken through an alias so the planner cannot scan the pending_identity_key index.
  WITH n, n.pending_identity_key AS key
  WHERE key IS NOT NULL
  MATCH (e:Entity {identity_key: key})
  USING INDEX e:Entity(identity_key)
  WHERE e.project_id = $project_id
    AND NOT EXISTS { (e)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  RETURN 'error' AS severity,
         n.type + ' ' + coalesce(n.name, n.id) + ' (' + n.id + ') already exists as committed node ' + e.id +
         '; applying would break the identity rule. Point the delta at ' + e.id + ' instead of creating a copy.' AS message,
         [n.id, e.id] AS node_ids,
         {rule: 'same_identity', node_type: n.type, identity_key: n.pending_identity_key, pending_node_id: n.id, committed_node_id: e.id} AS evidence
  UNION ALL
  MATCH (d)-[:CREATED]->(n:Entity)
  WITH n, n.pending_identity_key AS key
  WHERE key IS NOT NULL
  MATCH (e:Entity {pending_identity_key: key})
  USING INDEX e:Entity(pending_identity_key)
  WHERE e.delta_id = $delta_id AND n.id < e.id
  RETURN 'error' AS severity,
         n.type + ' ' + coalesce(n.name, n.id) + ' is created twice by this delta (' + n.id + ' and ' + e.id +
         '); applying would break the identity rule. Keep one.' AS message,
         [n.id, e.id] AS node_ids,
         {rule: 'same_identity_in_delta', node_type: n.type, identity_key: n.pending_identity_key, pending_node_id: n.id, other_pending_node_id: e.id} AS evidence
  UNION ALL
  MATCH (d)-[:CREATED]->(n:Memory)
  WHERE n.content IS NOT NULL
  WITH n, reduce(acc = '', w IN split(replace(replace(replace(toLower(trim(n.content)), '\n', ' '), '\r', ' '), '\t', ' '), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS collapsed
  WITH n, CASE WHEN right(collapsed, 1) IN ['.', '!', '?'] THEN left(collapsed, size(collapsed) - 1) ELSE collapsed END AS content
  WHERE content <> ''
  WITH n, content,
       '+tenant:' + coalesce(n.tenant, 'p' + toLower(replace($project_id, '-', '')) + 'z') +
       ' +content:"' + replace(replace(content, '\\', '\\\\'), '"', '\\"') + '"' AS phrase
  CALL db.index.fulltext.queryNodes('memory_text', phrase, {limit: 50}) YIELD node AS m
  WITH n, content, m
  WHERE m.project_id = $project_id AND m <> n
    AND (NOT m:Pending OR (m.delta_id = $delta_id AND n.id < m.id))
    AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  WITH n, content, m, reduce(acc = '', w IN split(replace(replace(replace(toLower(trim(m.content)), '\n', ' '), '\r', ' '), '\t', ' '), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS collapsed
  WHERE content = CASE WHEN right(collapsed, 1) IN ['.', '!', '?'] THEN left(collapsed, size(collapsed) - 1) ELSE collapsed END
  RETURN 'warning' AS severity,
         CASE WHEN m:Pending
           THEN 'Memory ' + n.id + ' and memory ' + m.id + ' of this delta say the same thing ("' + coalesce(n.name, '') + '"). Keep one.'
           ELSE 'Memory ' + n.id + ' repeats committed memory ' + m.id + ' ("' + coalesce(n.name, '') + '"). Drop it from the delta, or reject the delta.'
         END AS message,
         [n.id, m.id] AS node_ids,
         CASE WHEN m:Pending
           THEN {rule: 'same_content_in_delta', node_type: 'Memory', pending_node_id: n.id, other_pending_node_id: m.id}
           ELSE {rule: 'same_content', node_type: 'Memory', pending_node_id: n.id, committed_node_id: m.id}
         END AS evidence
}
RETURN 'duplicates' AS check, severity, message, node_ids, [] AS relationship_ids, evidence
