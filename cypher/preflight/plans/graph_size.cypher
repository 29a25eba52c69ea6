// The graph's size as the preflight plan keeper measures it (src/preflight/plans.ts): every node and
// every relationship. Both counts come from Neo4j's count store; nothing is scanned.
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
RETURN nodes + relationships AS size
