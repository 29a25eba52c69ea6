// The statistics recall's, search's and compile's plans are made from, as the read plan keeper watches them
// (src/search/readPlans.ts): every node and relationship, and the labels and types those reads start from or walk.
// Each count comes from Neo4j's count store; nothing is scanned.
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
CALL () { MATCH (n:Memory) RETURN count(n) AS memories }
CALL () { MATCH (n:Episode) RETURN count(n) AS episodes }
CALL () { MATCH (n:Term) RETURN count(n) AS terms }
CALL () { MATCH (n:Chunk) RETURN count(n) AS chunks }
CALL () { MATCH (n:Entity) RETURN count(n) AS entities }
CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
CALL () { MATCH ()-[r:IN_EPISODE]->() RETURN count(r) AS in_episode }
RETURN nodes, relationships, memories, episodes, terms, chunks, entities, mentions, in_episode
