// Saved context packs: a project's packs are listed newest first.
CREATE INDEX context_pack_project_created IF NOT EXISTS FOR (p:ContextPack) ON (p.project_id, p.created_at);
