// The definitions of the built-in memory shape: its one entity type (Memory), the properties a
// memory node carries, and the subject/object relationships to any entity. MERGE keeps it idempotent.
MATCH (s:Shape {id: '5e1f0000-0000-4000-8000-000000000001'})
SET s.orphans_allowed = ['Memory', 'Concept']
MERGE (s)-[:DEFINES]->(t:EntityType {shape_id: s.id, label: 'Memory'})
SET t.description = 'A short statement an agent keeps: a preference, decision, fact, lesson, observation or signal.',
    t.identity = 'content', t.required = ['content', 'kind'], t.position = 0
WITH s, t, [
  {name: 'content', type: 'string', description: 'The memory text.'},
  {name: 'kind', type: 'string', enum: ['preference', 'decision', 'fact', 'lesson', 'observation', 'signal'], description: 'What sort of statement it is.'},
  {name: 'scope', type: 'string', enum: ['agent', 'commons', 'project'], description: 'Who the memory is for.'},
  {name: 'name', type: 'string', description: 'A short name derived from the content.'},
  {name: 'memory_schema', type: 'string', description: 'Schema tag, gks.memory/v1.'},
  {name: 'date_observed', type: 'date', description: 'The day it was said or happened (the date of observed_at).'},
  {name: 'observed_at', type: 'datetime', description: 'When it was said or happened (default: when it was stored).'},
  {name: 'episode', type: 'string', description: 'The key of the episode (conversation, session, thread) it came from.'},
  {name: 'subject_name', type: 'string', description: 'Name of the entity the memory is about.'},
  {name: 'predicate', type: 'string', description: 'The relation the memory states between subject and object.'},
  {name: 'object_name', type: 'string', description: 'Name of the object entity.'},
  {name: 'source_context', type: 'string', description: 'Where the memory came from.'},
  {name: 'forget_after', type: 'datetime', description: 'Recallable until then.'},
  {name: 'forget_reason', type: 'string', description: 'Why it will be forgotten.'},
  {name: 'valid_from', type: 'datetime', description: 'When the fact starts to hold (valid time).'},
  {name: 'valid_to', type: 'datetime', description: 'When the fact stops holding (valid time); absent: still true.'}
] AS props
UNWIND range(0, size(props) - 1) AS i
WITH s, t, props[i] AS p, i
MERGE (t)-[:HAS_PROPERTY]->(d:PropertyDef {shape_id: s.id, entity_label: 'Memory', name: p.name})
SET d.type = p.type, d.enum = p.enum, d.description = p.description, d.position = i;

MATCH (s:Shape {id: '5e1f0000-0000-4000-8000-000000000001'})
WITH s, [
  {type: 'HAS_SUBJECT', description: 'The entity a memory is about.'},
  {type: 'HAS_OBJECT', description: 'The object entity of the relation a memory states.'}
] AS rels
UNWIND range(0, size(rels) - 1) AS i
WITH s, rels[i] AS r, i
MERGE (s)-[:DEFINES]->(d:RelationshipType {shape_id: s.id, type: r.type, from: 'Memory', to: 'Entity'})
SET d.cardinality = 'many_to_one', d.patterns = [], d.description = r.description, d.position = i;

// Memories of one episode in observed order (docs/episodes.md): each has at most one next and one previous.
MATCH (s:Shape {id: '5e1f0000-0000-4000-8000-000000000001'})
MERGE (s)-[:DEFINES]->(d:RelationshipType {shape_id: s.id, type: 'NEXT', from: 'Memory', to: 'Memory'})
SET d.cardinality = 'one_to_one', d.patterns = [], d.position = 2,
    d.description = 'The memory observed next in the same episode (conversation, session, thread, ticket).';
