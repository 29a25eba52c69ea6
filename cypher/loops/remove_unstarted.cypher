// Compensation when the workflow could not be dispatched: no loop record and no delta stay behind.
MATCH (l:Loop {id: $id})-[:STAGES_INTO]->(d:Delta)
DETACH DELETE l, d
