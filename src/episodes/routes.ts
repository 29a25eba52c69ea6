// The Episodes area (docs/episodes.md): the conversations, sessions, threads, meetings, calls and tickets memories
// came from, newest first, and one episode's memories in the order they were observed.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { listRoute, queryActorOf } from '../http/records.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { idParams } from '../http/schemas.js';
import { notFound } from '../errors/catalogue.js';
import { memoryView } from '../memories/views.js';
import { getEpisodeAnswer, getEpisodeQuery, listEpisodesAnswer, listEpisodesQuery } from './schemas.js';
import { listEpisodes, readEpisode } from './store.js';
import { episodeView } from './views.js';

export function episodeRoutes(deps: Deps) {
  return defineRoutes([
    listRoute<typeof listEpisodesAnswer, typeof listEpisodesQuery, 'episodes', 'newest'>(
      deps,
      {
        path: '/v1/episodes',
        operationId: 'listEpisodes',
        tag: 'Memories',
        scope: 'memories:read',
        summary: "List the project's episodes, the most recently observed first",
        description:
          'Episodes are made by memory writes that name an `episode`; each lists its key, how many committed ' +
          'memories it holds and when the first and latest of them were observed. Staged episodes appear once ' +
          'their delta is applied.',
        key: 'episodes',
        query: listEpisodesQuery,
        response: listEpisodesAnswer,
        order: 'newest',
      },
      async (actor, q, after) => {
        const rows = await deps.graph.read((tx) =>
          listEpisodes(tx, actor.projectId, { after: after ? { at: after.c, id: after.i } : null, limit: q.limit + 1 }),
        );
        return rows.map((e) => (e ? episodeView(e) : null));
      },
      (e) => ({ c: String(e.last_observed_at), i: String(e.id) }),
    ),
    route<typeof getEpisodeAnswer>({
      method: 'get',
      path: '/v1/episodes/:id',
      operationId: 'getEpisode',
      tag: 'Memories',
      scope: 'memories:read',
      summary: 'Read one episode with a page of its memories in observed order',
      description:
        'The memories are committed ones, oldest observation first (then id), as the (:Memory)-[:NEXT]->(:Memory) ' +
        'chain reads; `next_cursor` continues after the last one shown. 404 for an episode that is not committed ' +
        'in the project.',
      params: idParams,
      query: getEpisodeQuery,
      status: 200,
      errors: ['not_found'],
      keyInTransaction: true,
      response: getEpisodeAnswer,
      handler: async (ctx) => {
        const { query, actor } = await queryActorOf<typeof getEpisodeQuery>(deps, ctx);
        const after = decodeCursor<{ c: string; i: string }>(query.cursor, { c: 'timestamp', i: 'string' });
        const id = ctx.params.id!;
        const read = await deps.graph.read((tx) =>
          readEpisode(tx, actor.projectId, id, {
            after: after ? { at: after.c, id: after.i } : null,
            limit: query.limit + 1,
          }),
        );
        if (!read) throw notFound('episode', id);
        const shown = read.memories.slice(0, query.limit);
        const last = shown.at(-1);
        const hasMore = read.memories.length > query.limit;
        return {
          body: {
            episode: episodeView(read.episode),
            memories: shown.map((m) => memoryView(m, 'single')),
            has_more: hasMore,
            next_cursor: hasMore && last ? encodeCursor({ c: last.observed_at ?? last.created_at, i: last.id }) : null,
          },
        };
      },
    }),
  ]);
}
