// The write locks of the project shapes a delta's nodes are made through ($ids: the shape_id values
// its created and updated nodes name), taken before the nodes are staged (a property set and removed:
// nothing stays), then the ids of shapes deleted meanwhile. A shape's delete takes the same lock
// before it counts what uses the shape, so a write through a shape and the shape's delete run one
// after the other (docs/shapes.md); a shape deleted before this write reached it is `missing`.
// Built-in shapes (no project) are never deleted and are not locked: writes through them never wait.
CALL () {
  UNWIND $ids AS id
  MATCH (s:Shape {id: id})
  USING INDEX s:Shape(id)
  WHERE s.project_id = $project_id AND NOT s:Pending
  SET s.gks_lock = true
  REMOVE s.gks_lock
}
RETURN
       // Deleted since the draft read it (a delete's change record names it): not a shape that never was,
       // which the preflight's unknown_shape rule reports instead.
       [id IN $ids WHERE NOT EXISTS {
          MATCH (s:Shape {id: id})
          USING INDEX s:Shape(id)
          WHERE (s.builtin = true OR s.project_id = $project_id) AND NOT s:Pending
        } AND EXISTS { MATCH (c:Change {node_id: id}) WHERE c.op = 'delete_node' }] AS missing
