// Check: duplicates.
// Detects a node the delta creates that repeats one of the same type:
//   same_identity           (error)   a new entity whose identity key (project|Label|normalized identity)
//                                     is held by a committed entity: the apply would break the
//                                     uniqueness rule on identity_key and fail;
//   same_identity_in_delta  (error)   two new entities of the delta share one identity key;
//   renamed_to_identity     (error)   an update of the delta gives an entity (new name or type) the
//                                     identity key a committed entity holds: merge them instead;
//   same_name_other_type    (warning) a new entity whose normalized name a committed entity of
//                                     another type has (Ada the Person and Ada the Concept);
//   same_content            (warning) a new memory whose normalized content (lower case, every run
//                                     of punctuation, symbols and whitespace one space) equals a
//                                     committed memory of the project;
//   same_content_in_delta   (warning) two new memories of the delta with the same normalized content;
//   corrected_to_content    (warning) a correction (update) of a committed memory's content makes it
//                                     equal, once normalized as same_content does, to another committed
//                                     memory (one the delta neither deletes nor corrects too);
//   same_triple             (warning) a new memory that states the same (subject, predicate, object)
//                                     as a committed memory in other words: same subject and object
//                                     entities, predicate equal once normalized as content is.
// Committed nodes the delta deletes do not count. Lookups: Entity.identity_key (unique),
// Entity.pending_identity_key (index), Entity(project_id, normalized_name) (index), the
// memory_text full-text index (phrase query, tenant token), the new memory's subject entity.
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
  USING INDEX SEEK e:Entity(identity_key)
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
  USING INDEX SEEK e:Entity(pending_identity_key)
  WHERE e.delta_id = $delta_id AND n.id < e.id
  RETURN 'error' AS severity,
         n.type + ' ' + coalesce(n.name, n.id) + ' is created twice by this delta (' + n.id + ' and ' + e.id +
         '); applying would break the identity rule. Keep one.' AS message,
         [n.id, e.id] AS node_ids,
         {rule: 'same_identity_in_delta', node_type: n.type, identity_key: n.pending_identity_key, pending_node_id: n.id, other_pending_node_id: e.id} AS evidence
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
  WHERE 'identity_key' IN c.set_keys AND c['new.identity_key'] IS NOT NULL
  // Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
  MATCH (c)-[target]->(n:Entity)
  WHERE type(target) = 'TARGET'
  WITH n, c['new.identity_key'] AS key
  MATCH (e:Entity {identity_key: key})
  USING INDEX SEEK e:Entity(identity_key)
  WHERE e <> n AND e.project_id = $project_id
    AND NOT EXISTS { (e)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  RETURN 'error' AS severity,
         'The correction of ' + coalesce(n.name, n.id) + ' (' + n.id + ') gives it the identity of committed entity ' + coalesce(e.name, e.id) +
         ' (' + e.id + '); applying would break the identity rule. Merge the two (POST /v1/entities/merge) instead.' AS message,
         [n.id, e.id] AS node_ids,
         {rule: 'renamed_to_identity', identity_key: key, node_id: n.id, committed_node_id: e.id} AS evidence
  UNION ALL
  MATCH (d)-[:CREATED]->(n:Entity)
  WITH n, n.normalized_name AS name
  WHERE name IS NOT NULL AND name <> ''
  MATCH (e:Entity {project_id: $project_id, normalized_name: name})
  USING INDEX SEEK e:Entity(project_id, normalized_name)
  WHERE NOT e:Pending AND coalesce(e.type, '') <> coalesce(n.type, '')
    AND NOT EXISTS { (e)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  RETURN 'warning' AS severity,
         n.type + ' ' + coalesce(n.name, n.id) + ' (' + n.id + ') has the name of committed ' + coalesce(e.type, 'entity') + ' ' + e.id +
         '. If they are the same thing, point the delta at ' + e.id + ' (or correct its type); if not, tell them apart by name.' AS message,
         [n.id, e.id] AS node_ids,
         {rule: 'same_name_other_type', node_type: n.type, expected: e.type, actual: n.type, pending_node_id: n.id, committed_node_id: e.id} AS evidence
  UNION ALL
  MATCH (d)-[:CREATED]->(n:Memory)
  WHERE n.content IS NOT NULL
  WITH n, reduce(acc = '', w IN split(replace(replace(replace(toLower(trim(n.content)), '\n', ' '), '\r', ' '), '\t', ' '), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS collapsed,
       reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(n.content), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS content
  WHERE content <> ''
  WITH n, content,
       '+tenant:' + coalesce(n.tenant, 'p' + toLower(replace($project_id, '-', '')) + 'z') +
       ' +content:"' + replace(replace(collapsed, '\\', '\\\\'), '"', '\\"') + '"' AS phrase
  CALL db.index.fulltext.queryNodes('memory_text', phrase, {limit: 50}) YIELD node AS m
  WITH n, content, m
  WHERE m.project_id = $project_id AND m <> n
    AND (NOT m:Pending OR (m.delta_id = $delta_id AND n.id < m.id))
    AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  WITH n, content, m,
       reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(m.content), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS other
  WHERE content = other
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
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
  WHERE 'content' IN c.set_keys AND c['new.content'] IS NOT NULL
  // Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
  MATCH (c)-[target]->(n:Memory)
  WHERE type(target) = 'TARGET'
  WITH n, c['new.content'] AS text
  WITH n, reduce(acc = '', w IN split(replace(replace(replace(toLower(trim(text)), '\n', ' '), '\r', ' '), '\t', ' '), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS collapsed,
       reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(text), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS content
  WHERE content <> ''
  WITH n, content,
       '+tenant:' + coalesce(n.tenant, 'p' + toLower(replace($project_id, '-', '')) + 'z') +
       ' +content:"' + replace(replace(collapsed, '\\', '\\\\'), '"', '\\"') + '"' AS phrase
  CALL db.index.fulltext.queryNodes('memory_text', phrase, {limit: 50}) YIELD node AS m
  WITH n, content, m
  WHERE m.project_id = $project_id AND m <> n AND NOT m:Pending
    AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
    AND NOT EXISTS { (m)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id}) WHERE 'content' IN u.set_keys }
  WITH n, content, m,
       reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(m.content), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
                 CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS other
  WHERE content = other
  RETURN 'warning' AS severity,
         'The correction of memory ' + n.id + ' makes it repeat committed memory ' + m.id + ' ("' + coalesce(m.name, '') +
         '"). Delete or supersede one of them instead of keeping both.' AS message,
         [n.id, m.id] AS node_ids,
         {rule: 'corrected_to_content', node_type: 'Memory', node_id: n.id, committed_node_id: m.id} AS evidence
  UNION ALL
  MATCH (d)-[:CREATED]->(n:Memory)
  WHERE n.predicate IS NOT NULL
  MATCH (n)-[hs:HAS_SUBJECT]->(s)
  WHERE hs.delta_id = $delta_id
  MATCH (n)-[ho:HAS_OBJECT]->(o)
  WHERE ho.delta_id = $delta_id
  WITH n, s, o,
       reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(n.predicate), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
              CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END) AS predicate
  MATCH (s)<-[hm:HAS_SUBJECT]-(m:Memory)
  WHERE m <> n AND hm.pending IS NULL AND NOT m:Pending AND m.predicate IS NOT NULL
    AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: hm.id}) }
    AND EXISTS { (m)-[ho2:HAS_OBJECT]->(o) WHERE ho2.pending IS NULL
                 AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: ho2.id}) } }
    AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
    AND (m.forget_after IS NULL OR m.forget_after > datetime($now))
    AND predicate = reduce(acc = '', w IN split(reduce(t = '', ch IN split(toLower(m.predicate), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
                           CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + ' ' + w END)
    AND toLower(trim(m.content)) <> toLower(trim(n.content))
  RETURN 'warning' AS severity,
         'Memory ' + n.id + ' states what committed memory ' + m.id + ' already states: ' + coalesce(s.name, s.id) + ' ' + predicate + ' ' +
         coalesce(o.name, o.id) + ' (in other words). Drop it, or supersede the old one if it says more.' AS message,
         [n.id, m.id, s.id, o.id] AS node_ids,
         {rule: 'same_triple', node_type: 'Memory', pending_node_id: n.id, committed_node_id: m.id, subject_id: s.id, predicate: predicate} AS evidence
}
RETURN 'duplicates' AS check, severity, message, node_ids, [] AS relationship_ids, evidence
