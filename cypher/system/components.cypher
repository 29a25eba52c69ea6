// The database engine answering: name, version and edition (proves the real Neo4j).
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
