// The people a question names who speak in the project (docs/recall.md, "Who speaks is the graph's"): of the
// question's person terms ($keys), those some committed memory of the project is said by (a MENTIONS of role
// speaker, read from a transcript line "Name: ..."). Meaning and the words read the question without their
// names; the hops keep them (src/memories/speakers.ts).
UNWIND $keys AS key
MATCH (t:Term {project_id: $project_id, key: key})
WHERE EXISTS { (t)<-[:MENTIONS {role: 'speaker'}]-(m:Memory) WHERE NOT m:Pending }
RETURN collect(t.key) AS speakers
