// The people a question names who speak in the project (docs/recall.md, "Who asks is not what is asked"): of the
// question's person terms ($keys), those some committed memory of the project is said by (a MENTIONS of role
// speaker, read from a transcript line "Name: ..."). Meaning is asked without their names; the words and the hops
// keep them.
UNWIND $keys AS key
MATCH (t:Term {project_id: $project_id, key: key})
WHERE EXISTS { (t)<-[:MENTIONS {role: 'speaker'}]-(m:Memory) WHERE NOT m:Pending }
RETURN collect(t.key) AS speakers
