// A project's facts (memories with a predicate), found by their project: memories/fact_predicates reads their
// relationship types when a fact names a type the database does not know yet. Only memories with a predicate
// are in this index (a range index holds the nodes that have every property it names), so a memory without
// one costs it nothing.
CREATE INDEX memory_project_predicate IF NOT EXISTS FOR (m:Memory) ON (m.project_id, m.predicate);
