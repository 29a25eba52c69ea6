// A connection by id alone (workflow inputs carry only ids; the node names its project).
MATCH (c:Connection:Knowledge {id: $id})
RETURN properties(c) AS connection, c:Pending AS pending
