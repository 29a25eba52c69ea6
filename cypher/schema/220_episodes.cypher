// Episodes (docs/episodes.md): the conversation, session, thread, meeting, call or ticket a memory came from.
// A committed episode is unique per project and key (its identity_key); a staged one keeps pending_identity_key.
CREATE CONSTRAINT episode_identity IF NOT EXISTS FOR (e:Episode) REQUIRE e.identity_key IS UNIQUE;
CREATE INDEX episode_project_key IF NOT EXISTS FOR (e:Episode) ON (e.project_id, e.key);
// GET /v1/episodes: newest first (by the last memory observed in it), paged by keyset.
CREATE INDEX episode_project_last IF NOT EXISTS FOR (e:Episode) ON (e.project_id, e.last_observed_at);
// The episode channel of recall: an episode's whole text (its memories in observed order), English analyzer as
// memory_text, restricted to the project by its tenant token.
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (e:Episode) ON EACH [e.text, e.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// The time channel of recall and the episode filter: a project's memories by when they were observed, and an
// episode's memories in observed order (both range seeks). Memories written before episodes have no
// observed_at and are in neither (their created_at stands for it).
CREATE INDEX memory_project_observed IF NOT EXISTS FOR (m:Memory) ON (m.project_id, m.observed_at);
CREATE INDEX memory_project_episode IF NOT EXISTS FOR (m:Memory) ON (m.project_id, m.episode, m.observed_at);
