// The built-in memory shape (schema tag gks.memory/v1), shared by every project.
MERGE (s:Shape {id: '5e1f0000-0000-4000-8000-000000000001'})
ON CREATE SET s.name = 'memory', s.version = 1, s.schema_tag = 'gks.memory/v1', s.builtin = true,
              s.status = 'published', s.description = 'Short statements an agent keeps: preference, decision, fact, lesson, observation, signal.',
              s.created_at = datetime();
