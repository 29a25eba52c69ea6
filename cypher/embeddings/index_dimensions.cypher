// The vector indexes that exist, with the dimensions each was created for.
SHOW VECTOR INDEXES YIELD name, options
WHERE name IN $names
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
