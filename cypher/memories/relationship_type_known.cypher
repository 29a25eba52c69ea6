// Whether a relationship type name is already a token of the database (a fact edge of that type
// adds no new token). Reads the token list only.
CALL db.relationshipTypes() YIELD relationshipType
WITH relationshipType WHERE relationshipType = $type
RETURN count(*) > 0 AS known
