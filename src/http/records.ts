// What routes on the records of a project repeat: who is acting (project_id in the query, or in the body of a
// write) and the GET of one committed record by :id, answering { <key>: <view> } or 404.
import { actorFor, type Actor } from '../auth/actor.js';
import { bodyOf, queryOf } from './app.js';
import { decodeCursor, type CursorField } from './cursor.js';
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

/** A page of a list ordered by name, then newest version first: the cursor holds name, version and id. */
export function byNamePage<S extends JSONSchema>(deps: Deps, ctx: ApiContext) {
  return pageRequest<S, { n: string; v: number; i: string }>(deps, ctx, { n: 'string', v: 'number', i: 'string' });
}
