// The built-in general shape: people, organizations, places, products, events and concepts with
// their typical relationships. Every entity type is identified by its name. MERGE keeps it idempotent.
MERGE (s:Shape {id: '5e1f0000-0000-4000-8000-000000000002'})
SET s.name = 'general', s.version = 1, s.schema_tag = 'gks.general/v1', s.builtin = true, s.status = 'published',
    s.description = 'General-purpose entities (Person, Organization, Place, Product, Event, Concept) and how they relate.',
    s.orphans_allowed = ['Concept', 'Place'], s.created_at = coalesce(s.created_at, datetime()),
    s.updated_at = coalesce(s.updated_at, s.created_at);

MATCH (s:Shape {id: '5e1f0000-0000-4000-8000-000000000002'})
WITH s, [
  {label: 'Person', description: 'A human individual.', properties: [
    {name: 'name', type: 'string', description: 'Full name.'},
    {name: 'role', type: 'string', description: 'Job title or role.'},
    {name: 'email', type: 'string', description: 'Email address.'},
    {name: 'description', type: 'string', description: 'Who the person is.'}]},
  {label: 'Organization', description: 'A company, institution, agency or team.', properties: [
    {name: 'name', type: 'string', description: 'Official or common name.'},
    {name: 'industry', type: 'string', description: 'Sector it works in.'},
    {name: 'website', type: 'string', description: 'Home page URL.'},
    {name: 'founded_year', type: 'integer', description: 'Year it was founded.'},
    {name: 'description', type: 'string', description: 'What the organization does.'}]},
  {label: 'Place', description: 'A city, region, country, address or site.', properties: [
    {name: 'name', type: 'string', description: 'Place name.'},
    {name: 'kind', type: 'string', enum: ['city', 'region', 'country', 'address', 'site', 'other'], description: 'What sort of place.'},
    {name: 'country', type: 'string', description: 'Country it lies in.'}]},
  {label: 'Product', description: 'A product, project, tool, work or machine someone made.', properties: [
    {name: 'name', type: 'string', description: 'Product name.'},
    {name: 'category', type: 'string', description: 'What sort of product.'},
    {name: 'released', type: 'date', description: 'Release date.'},
    {name: 'description', type: 'string', description: 'What it is.'}]},
  {label: 'Event', description: 'A conference, launch, meeting or incident.', properties: [
    {name: 'name', type: 'string', description: 'Event name.'},
    {name: 'date', type: 'date', description: 'When it took place (start).'},
    {name: 'end_date', type: 'date', description: 'When it ended.'},
    {name: 'description', type: 'string', description: 'What happened.'}]},
  {label: 'Concept', description: 'An idea, topic, theory or method.', properties: [
    {name: 'name', type: 'string', description: 'Name of the concept.'},
    {name: 'description', type: 'string', description: 'What it means.'}]}
] AS types
UNWIND range(0, size(types) - 1) AS i
WITH s, types[i] AS x, i
MERGE (s)-[:DEFINES]->(t:EntityType {shape_id: s.id, label: x.label})
SET t.description = x.description, t.identity = 'name', t.required = ['name'], t.position = i
WITH s, t, x
UNWIND range(0, size(x.properties) - 1) AS j
WITH s, t, x, x.properties[j] AS p, j
MERGE (t)-[:HAS_PROPERTY]->(d:PropertyDef {shape_id: s.id, entity_label: x.label, name: p.name})
SET d.type = p.type, d.enum = p.enum, d.description = p.description, d.position = j;

MATCH (s:Shape {id: '5e1f0000-0000-4000-8000-000000000002'})
WITH s, [
  {type: 'WORKS_FOR', from: 'Person', to: 'Organization', cardinality: 'many_to_many', temporal: 'single_valued_at_a_time', patterns: ['works for', 'employed by', 'joined'], description: 'A person works or worked for an organization (one employer at a time).'},
  {type: 'LOCATED_IN', from: 'Organization', to: 'Place', cardinality: 'many_to_one', patterns: ['based in', 'located in', 'headquartered in'], description: 'Where an organization is based.'},
  {type: 'CREATED', from: 'Person', to: 'Product', cardinality: 'many_to_many', patterns: ['created', 'built', 'designed'], description: 'A person made a product.'},
  {type: 'PART_OF', from: 'Concept', to: 'Concept', cardinality: 'many_to_one', patterns: ['part of', 'belongs to'], description: 'A concept is part of a broader one.'},
  {type: 'PARTICIPATED_IN', from: 'Person', to: 'Event', cardinality: 'many_to_many', temporal: 'many', patterns: ['attended', 'participated in'], description: 'A person took part in an event.'},
  {type: 'LIVES_IN', from: 'Person', to: 'Place', cardinality: 'many_to_many', temporal: 'single_valued_at_a_time', patterns: [], description: 'Where a person lives (one residence at a time).'},
  {type: 'HAS_ROLE', from: 'Person', to: 'Concept', cardinality: 'many_to_many', temporal: 'single_valued_at_a_time', patterns: [], description: 'The role a person holds (one at a time).'},
  {type: 'MARRIED_TO', from: 'Person', to: 'Person', cardinality: 'many_to_many', temporal: 'single_valued_at_a_time', patterns: [], description: 'A person is married to another (one at a time).'},
  {type: 'SPEAKS', from: 'Person', to: 'Concept', cardinality: 'many_to_many', temporal: 'many', patterns: [], description: 'A language a person speaks (many).'},
  {type: 'HAS_SKILL', from: 'Person', to: 'Concept', cardinality: 'many_to_many', temporal: 'many', patterns: [], description: 'A skill a person has (many).'},
  {type: 'REPORTS_TO', from: 'Person', to: 'Person', cardinality: 'many_to_many', temporal: 'single_valued_at_a_time', patterns: ['reports to'], description: 'A person reports to a line manager (one at a time).'}
] AS rels
UNWIND range(0, size(rels) - 1) AS i
WITH s, rels[i] AS r, i
MERGE (s)-[:DEFINES]->(d:RelationshipType {shape_id: s.id, type: r.type, from: r.from, to: r.to})
SET d.cardinality = r.cardinality, d.temporal = r.temporal, d.patterns = r.patterns, d.description = r.description, d.position = i;
