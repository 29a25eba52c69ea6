// A change in a transaction that a rehearsal then rolls back (src/deltas/rehearse.ts): a node with no label or
// property, so the statements after it are planned as they run in a transaction that has written.
CREATE ()
