// A bridge of this name in the project, committed or staged.
MATCH (b:Bridge {name_key: $name_key})
RETURN b.id AS id, b:Pending AS pending, b.delta_id AS delta_id
LIMIT 1
