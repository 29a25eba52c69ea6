// What routes on the records of a project repeat: who is acting (project_id in the query, or in the body of a
// write) and the GET of one committed record by :id, answering { <key>: <view> } or 404.
import { actorFor, type Actor } from '../auth/actor.js';
import { bodyOf, queryOf } from './app.js';
import { decodeCursor, encodeCursor, FROM_START, keysetPage, readPage, type CursorField } from './cursor.js';
import type { Deps } from './deps.js';
import type { ApiContext, JsonSchema, RouteSpec } from './route.js';
import type { Input, JSONSchema } from './input.js';
import type { Answer, Known } from './answer.js';
import { idParams, projectOnlyBody, projectQuery } from './schemas.js';

/** The actor of a request whose project_id (if any) is in its query. */
export function queryActor(deps: Deps, ctx: ApiContext): Promise<Actor> {
  return actorFor(deps, ctx, queryOf<typeof projectQuery>(ctx).project_id, 'query');
}

/** The validated body (typed by its schema, the one the route validates with) and the actor it names. */
export async function bodyActor<S extends JSONSchema>(
  deps: Deps,
  ctx: ApiContext,
): Promise<{ body: Input<S>; actor: Actor }> {
  const body = bodyOf<typeof projectOnlyBody>(ctx);
  return { body: body as unknown as Input<S>, actor: await actorFor(deps, ctx, body.project_id, 'body') };
}

/** The validated query (typed by its schema, the one the route validates with) and the actor it names. */
export async function queryActorOf<S extends JSONSchema>(
  deps: Deps,
  ctx: ApiContext,
): Promise<{ query: Input<S>; actor: Actor }> {
  const query = queryOf<typeof projectQuery>(ctx);
  return { query: query as unknown as Input<S>, actor: await actorFor(deps, ctx, query.project_id, 'query') };
}

/** The actor of a request whose project_id is in its query (GET, DELETE) or else in its body. */
export function requestActor(deps: Deps, ctx: ApiContext): Promise<Actor> {
  const fromQuery = ctx.method === 'GET' || ctx.method === 'DELETE';
  const projectId = fromQuery
    ? queryOf<typeof projectQuery>(ctx)?.project_id
    : bodyOf<typeof projectOnlyBody>(ctx).project_id;
  return actorFor(deps, ctx, projectId, fromQuery ? 'query' : 'body');
}

type RecordSpec<K extends string, S, R> = Pick<
  RouteSpec,
  'path' | 'operationId' | 'tag' | 'scope' | 'summary' | 'description'
> & {
  /** The answer's one property. */
  key: K;
  /** Its schema: the answer is { type: object, properties: { [key]: schema } } unless response is given. */
  schema?: S;
  response?: R;
  params?: JsonSchema;
};

/** What read gives: the record's schema's type, or the type of the response's property `key`. */
type RecordAnswer<K extends string, S, R> = [R] extends [never]
  ? Answer<S>
  : Answer<R> extends infer A
    ? K extends keyof A
      ? Exclude<A[K], undefined>
      : never
    : never;

/** GET one committed record of the project by :id: { [key]: what read gives }, or the 404 read throws. */
export function recordRoute<
  const K extends string,
  const S extends JSONSchema = never,
  const R extends JSONSchema = never,
>(
  deps: Deps,
  spec: RecordSpec<K, S, R>,
  read: (actor: Actor, id: string, ctx: ApiContext) => Promise<NoInfer<Known<RecordAnswer<K, S, R>>>>,
  actorOf: (deps: Deps, ctx: ApiContext) => Promise<Actor> = queryActor,
): RouteSpec {
  const { key, schema, response, params, ...described } = spec;
  return {
    method: 'get',
    ...described,
    params: params ?? idParams,
    query: projectQuery,
    status: 200,
    errors: ['not_found'],
    // A read: its key's standing is read in its first transaction, and the record is answered only once it has.
    keyInTransaction: true,
    response: (response ?? { type: 'object', properties: { [key]: schema } }) as JsonSchema,
    handler: async (ctx) => ({ body: { [key]: await read(await actorOf(deps, ctx), ctx.params.id!, ctx) } }),
  };
}

/** A page request of a list: its validated query, the actor it names and the key the cursor continues after. */
async function pageRequest<S extends JSONSchema, K extends Record<string, string | number>>(
  deps: Deps,
  ctx: ApiContext,
  fields: { [F in keyof K]: CursorField },
): Promise<{ query: Input<S>; actor: Actor; after: K | null }> {
  const { query, actor } = await queryActorOf<typeof projectQuery>(deps, ctx);
  const cursor = (query as { cursor?: string }).cursor;
  return { query: query as unknown as Input<S>, actor, after: decodeCursor<K>(cursor, fields) };
}

/** A page of a list ordered newest first: the cursor holds the last item's created_at and id. */
export function newestFirstPage<S extends JSONSchema>(deps: Deps, ctx: ApiContext) {
  return pageRequest<S, { c: string; i: string }>(deps, ctx, { c: 'timestamp', i: 'string' });
}

/** The key a page continues after: newest first (created_at, id), or by name then version (name, version, id). */
type OrderKey = { newest: { c: string; i: string }; by_name: { n: string; v: number; i: string } };

type ListSpec<K extends string, Q, R, O extends keyof OrderKey> = Pick<
  RouteSpec,
  'path' | 'operationId' | 'tag' | 'scope' | 'summary' | 'description'
> &
  Partial<Pick<RouteSpec, 'params' | 'errors'>> & {
    /** The answer's list property, beside has_more and next_cursor (the schema cursorPage builds). */
    key: K;
    query: Q;
    response: R;
    order: O;
  };

/** The type of one item of the response's list property `key`. */
type ListItem<K extends string, R> =
  Answer<R> extends infer A
    ? K extends keyof A
      ? Exclude<A[K], undefined> extends (infer I)[]
        ? I
        : never
      : never
    : never;

/**
 * GET a cursor-paged list of the project: list reads up to query.limit + 1 items after the cursor's key (in the
 * order the route declares), and the answer is { [key]: the first limit, has_more, next_cursor }. The types are
 * given, as for route (`listRoute<typeof answer, typeof query, 'key', 'newest'>`): inferred from the schema
 * literals they are too deep.
 */
export function listRoute<
  R extends JSONSchema = never,
  Q extends JSONSchema = never,
  K extends string = never,
  O extends keyof OrderKey = never,
>(
  deps: Deps,
  spec: ListSpec<K, Q, R, O>,
  list: (
    actor: Actor,
    query: Input<Q>,
    after: OrderKey[O] | null,
    ctx: ApiContext,
    // null: a row whose node was deleted while the page was read (keysetPage).
  ) => Promise<(NoInfer<Known<ListItem<K, R>>> | null)[]>,
  keyOf: (item: NoInfer<Known<ListItem<K, R>>>) => OrderKey[O],
): RouteSpec {
  const { key, query, response, order, ...described } = spec;
  const fields = order === 'newest' ? { c: 'timestamp', i: 'string' } : { n: 'string', v: 'number', i: 'string' };
  return {
    method: 'get',
    ...described,
    query: query as JsonSchema,
    status: 200,
    errors: described.errors ?? [],
    response: response as JsonSchema,
    handler: async (ctx) => {
      const page = await pageRequest<typeof projectQuery, OrderKey[O]>(
        deps,
        ctx,
        fields as { [F in keyof OrderKey[O]]: CursorField },
      );
      const { limit } = page.query as { limit: number };
      const read = await readPage(() => list(page.actor, page.query as unknown as Input<Q>, page.after, ctx), limit);
      const resume = (page.query as { cursor?: string }).cursor ?? encodeCursor(FROM_START[order]);
      const { items, ...rest } = keysetPage(read, limit, keyOf, resume);
      return { body: { [key]: items, ...rest } };
    },
  };
}
