// Check: contradictions (warning).
// Starts from each fact or decision memory the delta creates (or relinks through a correction) and walks to the other memories about
// the same subject entity (HAS_SUBJECT), committed or of this delta, still recallable after the
// merge (forget_after unset or later than $now) and not deleted by the delta:
//   conflicting_object   same subject and predicate (case-insensitive, or two phrases of one type:
//                        each memory's recorded predicate_type) but a different object
//                        (object entity, or object name when either has no HAS_OBJECT), the
//                        predicate's type declared one at a time by a visible shape (temporal
//                        single_valued_at_a_time, or a many_to_one / one_to_one cardinality), and
//                        the two validities (valid_from, valid_to) overlapping; the evidence
//                        proposes the close correction of the older one (docs/facts.md);
//   undeclared_predicate (info) the same, but no visible shape declares the predicate's type: never
//                        a warning, it names the type to declare;
//   superseded_decision  a new decision about the same subject as a committed decision, with other
//                        content and no shared predicate: it silently replaces the old one.
// Not reported when the old memory is acknowledged as replaced: a committed SUPERSEDES points to it,
// or the delta links (new)-[:SUPERSEDES]->(old), or
// sets forget_after on the old memory. Updates of the delta (kind, predicate, object_name,
// forget_after) count. Cost: the degree of the subject entities the new memories name.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n:Memory)
  RETURN n
  UNION
  // A committed memory a correction relinks (new subject, predicate or object) is judged as new.
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship', type: 'HAS_SUBJECT'})-[:FROM]->(n:Memory)
  WHERE NOT n:Pending
  RETURN n
}
WITH n, COLLECT { MATCH (n)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id}) RETURN u ORDER BY u.seq } AS own
WITH n,
     CASE WHEN any(u IN own WHERE 'kind' IN u.set_keys) THEN last([u IN own WHERE 'kind' IN u.set_keys | u['new.kind']]) ELSE n.kind END AS n_kind,
     CASE WHEN any(u IN own WHERE 'predicate' IN u.set_keys) THEN last([u IN own WHERE 'predicate' IN u.set_keys | u['new.predicate']]) ELSE n.predicate END AS n_predicate,
     CASE WHEN any(u IN own WHERE 'predicate_type' IN u.set_keys) THEN last([u IN own WHERE 'predicate_type' IN u.set_keys | u['new.predicate_type']]) ELSE n.predicate_type END AS n_ptype,
     CASE WHEN any(u IN own WHERE 'content' IN u.set_keys) THEN last([u IN own WHERE 'content' IN u.set_keys | u['new.content']]) ELSE n.content END AS n_content,
     CASE WHEN any(u IN own WHERE 'object_name' IN u.set_keys) THEN last([u IN own WHERE 'object_name' IN u.set_keys | u['new.object_name']]) ELSE n.object_name END AS n_object_name,
     CASE WHEN any(u IN own WHERE 'valid_from' IN u.set_keys) THEN last([u IN own WHERE 'valid_from' IN u.set_keys | u['new.valid_from']]) ELSE n.valid_from END AS n_from,
     CASE WHEN any(u IN own WHERE 'valid_to' IN u.set_keys) THEN last([u IN own WHERE 'valid_to' IN u.set_keys | u['new.valid_to']]) ELSE n.valid_to END AS n_to
WHERE n_kind IN ['fact', 'decision']
MATCH (n)-[hs:HAS_SUBJECT]->(s)
WHERE hs.delta_id = $delta_id
  AND NOT EXISTS { (s)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
WITH n, n_kind, n_content, n_object_name, n_from, n_to, n_ptype, s, toLower(trim(n_predicate)) AS n_pred,
     head(COLLECT { MATCH (n)-[ho:HAS_OBJECT]->(o) WHERE ho.delta_id = $delta_id RETURN o ORDER BY o.id }) AS n_obj
// The type the memory recorded (predicate_type: the declared type its phrase names, docs/facts.md), or
// for one written before types were recorded, its predicate in upper snake case.
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj,
     coalesce(n_ptype, toUpper(reduce(acc = '', w IN split(reduce(t = '', ch IN split(coalesce(n_pred, ''), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
             CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + '_' + w END))) AS pred_type
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj, pred_type,
     COLLECT { MATCH (rt:RelationshipType {type: pred_type})<-[:DEFINES]-(sh:Shape)
               WHERE pred_type <> '' AND NOT rt:Pending AND NOT sh:Pending AND (sh.builtin = true OR sh.project_id = $project_id)
                 AND coalesce(sh.status, 'published') <> 'retired'
               RETURN rt } AS defs
// Time (docs/facts.md): a type is one at a time when the visible shapes that declare its temporal
// all say single_valued_at_a_time; when none declares it, when every definition's cardinality allows
// one object (many_to_one, one_to_one). Any shape reading it as many is enough to make it many.
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj, pred_type, defs,
     [rt IN defs WHERE rt.temporal IS NOT NULL] AS explicit
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj, pred_type, size(defs) > 0 AS declared,
     CASE WHEN size(explicit) > 0 THEN all(rt IN explicit WHERE rt.temporal = 'single_valued_at_a_time')
          ELSE size(defs) > 0 AND all(rt IN defs WHERE rt.cardinality IN ['many_to_one', 'one_to_one']) END AS single_at_a_time
MATCH (s)<-[hm:HAS_SUBJECT]-(m:Memory)
WHERE m <> n AND (hm.pending IS NULL OR hm.delta_id = $delta_id)
  AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: hm.id}) }
  AND (NOT m:Pending OR n.id < m.id)
  AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  AND NOT EXISTS { (n)-[:SUPERSEDES]->(m) }
  AND NOT EXISTS { (m)<-[sp:SUPERSEDES]-() WHERE sp.pending IS NULL OR sp.delta_id = $delta_id }
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj, pred_type, declared, single_at_a_time, m,
     COLLECT { MATCH (m)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id}) RETURN u ORDER BY u.seq } AS ups
WHERE NOT any(u IN ups WHERE 'forget_after' IN u.set_keys)
WITH n, n_kind, n_content, n_object_name, n_from, n_to, s, n_pred, n_obj, pred_type, declared, single_at_a_time, m,
     CASE WHEN any(u IN ups WHERE 'predicate_type' IN u.set_keys) THEN last([u IN ups WHERE 'predicate_type' IN u.set_keys | u['new.predicate_type']]) ELSE m.predicate_type END AS m_ptype,
     CASE WHEN any(u IN ups WHERE 'kind' IN u.set_keys) THEN last([u IN ups WHERE 'kind' IN u.set_keys | u['new.kind']]) ELSE m.kind END AS m_kind,
     toLower(trim(CASE WHEN any(u IN ups WHERE 'predicate' IN u.set_keys) THEN last([u IN ups WHERE 'predicate' IN u.set_keys | u['new.predicate']]) ELSE m.predicate END)) AS m_pred,
     CASE WHEN any(u IN ups WHERE 'object_name' IN u.set_keys) THEN last([u IN ups WHERE 'object_name' IN u.set_keys | u['new.object_name']]) ELSE m.object_name END AS m_object_name,
     CASE WHEN any(u IN ups WHERE 'valid_from' IN u.set_keys) THEN last([u IN ups WHERE 'valid_from' IN u.set_keys | u['new.valid_from']]) ELSE m.valid_from END AS m_from,
     CASE WHEN any(u IN ups WHERE 'valid_to' IN u.set_keys) THEN last([u IN ups WHERE 'valid_to' IN u.set_keys | u['new.valid_to']]) ELSE m.valid_to END AS m_to,
     head(COLLECT { MATCH (m)-[ho:HAS_OBJECT]->(o)
                    WHERE (ho.pending IS NULL OR ho.delta_id = $delta_id)
                      AND NOT EXISTS { (m)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: ho.id}) }
                      AND NOT EXISTS { (o)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
                    RETURN o ORDER BY o.id }) AS m_obj
WHERE m_kind IN ['fact', 'decision'] AND (m.forget_after IS NULL OR m.forget_after > datetime($now))
WITH n, n_kind, n_content, n_from, n_to, s, n_pred, pred_type, declared, single_at_a_time, m, m_kind, m_pred, m_from, m_to,
     coalesce(m_ptype, toUpper(reduce(acc = '', w IN split(reduce(t = '', ch IN split(coalesce(m_pred, ''), '') | t + CASE WHEN ch =~ '[\\p{L}\\p{N}]' THEN ch ELSE ' ' END), ' ') |
             CASE WHEN w = '' THEN acc WHEN acc = '' THEN w ELSE acc + '_' + w END))) AS m_type,
     n_obj.id AS n_obj_id, coalesce(n_object_name, n_obj.name) AS n_obj_name,
     m_obj.id AS m_obj_id, coalesce(m_object_name, m_obj.name) AS m_obj_name
WITH n, n_kind, n_content, n_from, n_to, s, n_pred, pred_type, declared, single_at_a_time, m, m_kind, m_pred, m_type,
     m_from, m_to, n_obj_name, m_obj_name,
     CASE WHEN n_obj_id IS NOT NULL AND m_obj_id IS NOT NULL THEN n_obj_id <> m_obj_id
          WHEN n_obj_name IS NOT NULL AND m_obj_name IS NOT NULL THEN toLower(trim(n_obj_name)) <> toLower(trim(m_obj_name))
          ELSE null END AS objects_differ,
     // One relation: the same words, or phrases of the same type ("works for", "works at": WORKS_FOR).
     n_pred IS NOT NULL AND m_pred IS NOT NULL AND (n_pred = m_pred OR (pred_type <> '' AND pred_type = m_type)) AS same_predicate,
     // Valid time: [from, to), an absent bound open; two facts conflict only when they overlap.
     (n_from IS NULL OR m_to IS NULL OR n_from < m_to) AND (m_from IS NULL OR n_to IS NULL OR m_from < n_to) AS overlap
WITH n, n_kind, s, m, m_kind, n_pred, m_pred, pred_type, n_obj_name, m_obj_name, n_from, m_from,
     CASE WHEN same_predicate AND objects_differ AND single_at_a_time AND overlap THEN 'conflicting_object'
          WHEN same_predicate AND objects_differ AND NOT declared THEN 'undeclared_predicate'
          WHEN n_kind = 'decision' AND m_kind = 'decision' AND NOT m:Pending AND NOT same_predicate
               AND toLower(trim(n_content)) <> toLower(trim(m.content)) THEN 'superseded_decision'
          ELSE null END AS rule
WHERE rule IS NOT NULL
// The proposed fix of an overlap: close the older fact (earlier valid_from; absent is earliest) at the
// newer one's valid_from, through POST /v1/memories/{older}/close; only when the older one is committed
// and the newer one says when it starts.
WITH n, n_kind, s, m, m_kind, n_pred, m_pred, pred_type, n_obj_name, m_obj_name, n_from, m_from, rule,
     CASE WHEN m_from IS NULL OR (n_from IS NOT NULL AND m_from <= n_from) THEN m ELSE n END AS older,
     CASE WHEN m_from IS NULL OR (n_from IS NOT NULL AND m_from <= n_from) THEN n_from ELSE m_from END AS close_at
WITH n, n_kind, s, m, m_kind, n_pred, m_pred, pred_type, n_obj_name, m_obj_name, rule,
     CASE WHEN rule = 'conflicting_object' AND close_at IS NOT NULL AND NOT older:Pending THEN older END AS closable, close_at
RETURN 'contradictions' AS check, CASE rule WHEN 'undeclared_predicate' THEN 'info' ELSE 'warning' END AS severity,
       CASE rule
         WHEN 'conflicting_object' THEN
           'New ' + n_kind + ' ' + n.id + ' says ' + coalesce(s.name, s.id) + ' ' + n_pred + ' ' + n_obj_name + ', but ' +
           CASE WHEN m:Pending THEN m.kind + ' ' + m.id + ' of this delta' ELSE 'committed ' + m_kind + ' ' + m.id END +
           ' says ' + coalesce(s.name, s.id) + ' ' + m_pred + ' ' + m_obj_name + ' at an overlapping time, and ' + n_pred +
           CASE WHEN m_pred <> n_pred THEN ' (' + pred_type + ')' ELSE '' END + ' holds one at a time. ' +
           CASE WHEN closable IS NOT NULL
             THEN 'Close ' + closable.id + ' when the other starts: POST /v1/memories/' + closable.id + '/close with valid_to ' +
                  toString(close_at) + ' (evidence correction_*), or link (new)-[:SUPERSEDES]->(old), or drop the new one.'
             ELSE 'Give the facts valid_from / valid_to that do not overlap, retire the old one (forget_after), link (new)-[:SUPERSEDES]->(old), or drop the new one.'
           END
         WHEN 'undeclared_predicate' THEN
           'New ' + n_kind + ' ' + n.id + ' says ' + coalesce(s.name, s.id) + ' ' + n_pred + ' ' + n_obj_name + ' beside ' +
           m_kind + ' ' + m.id + ' (' + m_obj_name + '). No shape declares ' + n_pred +
           '; declare its relationship type with temporal single_valued_at_a_time (one at a time) or many, so the audit can judge.'
         ELSE
           'New decision ' + n.id + ' about ' + coalesce(s.name, s.id) + ' silently supersedes committed decision ' + m.id +
           '. Say so: link (new)-[:SUPERSEDES]->(old) or set forget_after on the old decision in the same delta.'
       END AS message,
       [n.id, m.id, s.id] AS node_ids, [] AS relationship_ids,
       {rule: rule, pending_node_id: n.id,
        committed_node_id: CASE WHEN m:Pending THEN null ELSE m.id END,
        other_pending_node_id: CASE WHEN m:Pending THEN m.id ELSE null END,
        subject_id: s.id, subject_name: s.name, predicate: n_pred,
        expected: CASE WHEN rule IN ['conflicting_object', 'undeclared_predicate'] THEN m_obj_name ELSE null END,
        actual: CASE WHEN rule IN ['conflicting_object', 'undeclared_predicate'] THEN n_obj_name ELSE null END,
        correction_method: CASE WHEN closable IS NOT NULL THEN 'POST' END,
        correction_path: CASE WHEN closable IS NOT NULL THEN '/v1/memories/' + closable.id + '/close' END,
        correction_valid_to: CASE WHEN closable IS NOT NULL THEN close_at END} AS evidence
