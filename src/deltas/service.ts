// Stages, applies, rejects and reverts deltas. Every governed write goes through writeGoverned:
// staged, or (apply true) written in committed form in the same transaction. Apply, reject and
// revert of an existing delta run in one transaction under the delta's write lock, so of two
// concurrent applies exactly one wins.
import crypto from 'node:crypto';
import { BUILTIN_SHAPE_IDS } from '../shapes/types.js';
import { ConcurrentDeletion, type CarriedStanding, type Graph, type Row, type Tx } from '../db/graph.js';
import { lastRuns } from '../db/warming.js';
import { embeddingQueueEnabled, queueRevertedForEmbedding } from '../embeddings/queue.js';
import { ApiError, conflict, notFound } from '../errors/catalogue.js';
import type { DeltaDraft } from './draft.js';
import { sameValue, splitSharedProps } from './props.js';
import { relinkEpisodes, relinkStep } from '../episodes/store.js';
import { queueRevertedForMentions } from '../memories/mentionWorker.js';
import {
  deltaEventData,
  emitWebhookEvent,
  mayHaveSubscribers,
  noteOutbox,
  outboxExpected,
  webhookEventStep,
} from '../webhooks/events.js';

export type { Actor } from '../auth/actor.js';
import type { Actor } from '../auth/actor.js';

export interface WriteOutcome {
  deltaId: string;
  status: 'applied' | 'staged' | 'failed';
  error?: ApiError;
}

/**
 * What an explicit apply must pass (preflight enforcement), run inside its transaction before
 * anything is promoted: it throws to refuse the apply, or returns the findings an override_reason
 * overrode, which the apply records on the delta. Handed to applyDelta by its caller, never set
 * globally, so no assembly of the service can apply unguarded by accident.
 */
export type ApplyGuard = (
  tx: Tx,
  deltaId: string,
  actor: Actor,
  overrideReason: string | null,
) => Promise<Record<string, unknown>[]>;

/** For a delta with nothing in it to audit (an empty sync page): overrides nothing, refuses nothing. */
export const noApplyGuard: ApplyGuard = () => Promise.resolve([]);

/**
 * The origin a delta records: the area's (memory, correction, submission ...), or mcp for a write an
 * MCP tool call made. A loop's delta keeps loop: its content comes from the loop's workflow, not from
 * the agent that started it (its created_by is still the agent's key).
 */
export function originOf(draft: DeltaDraft, actor: Actor): string {
  return actor.via && draft.origin !== 'loop' ? actor.via : draft.origin;
}

/** One statement of a pipelined write, with the check its answer must pass (it throws to refuse the write). */
export interface WriteStep {
  statement: readonly [string, Record<string, unknown>];
  check?: (rows: Row[]) => void;
}

/** The statement that creates a delta with its new nodes, and answers the project's count of webhook endpoints. */
const CREATE_DELTA = 'deltas/create';
// Every governed write runs deltas/create: after a restart it is rehearsed (run, then rolled back) into the project it
// last wrote to, with new ids, so the first real writes do not meet a cold statement (src/db/warming.ts).
lastRuns.rehearse(CREATE_DELTA, {
  keep: ['project_id', 'now', 'labels', 'nodes.*.labels'],
  fresh: ['delta_id', 'nodes.*.id', 'nodes.*.change_id', 'nodes.*.identity_key'],
});

/**
 * Sends the steps pipelined (one round trip; Neo4j runs them in order), then checks each answer in order, after
 * `first` (what must be read of the answers before any check may refuse the write).
 */
export async function runSteps(
  tx: Tx,
  steps: readonly WriteStep[],
  first?: (answers: Row[][]) => void,
): Promise<Row[][]> {
  const answers = await tx.runAll(steps.map((s) => s.statement));
  first?.(answers);
  steps.forEach((s, i) => s.check?.(answers[i] ?? []));
  return answers;
}

export async function stageDelta(
  tx: Tx,
  draft: DeltaDraft,
  actor: Actor,
  now: string,
  deltaId: string = crypto.randomUUID(),
  committed = false,
): Promise<string> {
  await runSteps(tx, stageDeltaSteps(draft, actor, now, deltaId, committed));
  return deltaId;
}

/**
 * The statements that create a delta with its changes (nodes and relationships committed when $committed). The
 * delta is created with its new nodes in one statement (deltas/create): each statement costs the engine work of
 * its own, and a write of nodes only (a memory, a batch of them) is then that statement alone.
 */
function stageDeltaSteps(
  draft: DeltaDraft,
  actor: Actor,
  now: string,
  deltaId: string,
  committed: boolean,
  standing: CarriedStanding | null = null,
): WriteStep[] {
  const base = changeParams(deltaId, actor.projectId, now, committed);
  const create: WriteStep = {
    statement: [
      CREATE_DELTA,
      {
        delta_id: deltaId,
        project_id: actor.projectId,
        now,
        origin: originOf(draft, actor),
        summary: draft.summary,
        key_id: actor.keyId,
        request_id: actor.requestId,
        change_count: draft.size,
        applied: committed,
        embed: base.embed,
        episode_ids: draft.episodes.size > 0 ? [...draft.episodes].sort() : null,
        ...nodeRows(draft, 0),
        standing: standing?.params ?? null,
        alone: false,
      },
    ],
    check: (rows) => {
      if (rows.length === 0) throw new Error(`project ${actor.projectId} does not exist`);
    },
  };
  // The shapes' locks come before the nodes made through them (deltas/lock_shapes).
  return [...shapeLockSteps(draft, actor.projectId), create, ...linkedChangeSteps(draft, base, 0)];
}

/** Adds a draft's changes to an existing staged delta (loops stage iteration by iteration). */
export async function stageChanges(
  tx: Tx,
  draft: DeltaDraft,
  deltaId: string,
  projectId: string,
  now: string,
): Promise<void> {
  // Sequence numbers continue after what the delta already holds.
  const counted = await tx.one('deltas/bump_change_count', { delta_id: deltaId, added: draft.size });
  await runSteps(tx, changeSteps(draft, deltaId, projectId, now, Number(counted?.previous ?? 0)));
}

/** A statement that stages `count` changes, refused with `error` when it staged fewer (a name it could not match). */
function checkedStep(
  statement: string,
  params: Record<string, unknown>,
  count: number,
  error: () => ApiError,
): WriteStep {
  return {
    statement: [statement, params],
    check: (rows) => {
      if (Number(rows[0]?.staged) !== count) throw error();
    },
  };
}

/**
 * The project shapes a draft's created and updated nodes are made through (their shape_id), sorted: not one
 * the draft creates, nor a built-in one (never deleted, so a write through it takes no lock).
 */
function shapesNamed(draft: DeltaDraft): string[] {
  const ids = new Set<string>();
  for (const props of [...draft.nodes.map((n) => n.props), ...draft.updates.map((u) => u.set)])
    if (typeof props.shape_id === 'string') ids.add(props.shape_id);
  for (const node of draft.nodes) ids.delete(node.id);
  for (const id of BUILTIN_SHAPE_IDS) ids.delete(id);
  return [...ids].sort();
}

/** The parameters every statement that stages a draft's changes takes. */
function changeParams(deltaId: string, projectId: string, now: string, committed: boolean) {
  // A node written committed joins the embedding queue as it is created (docs/embeddings.md).
  return { delta_id: deltaId, project_id: projectId, now, committed, embed: committed && embeddingQueueEnabled() };
}

/**
 * The draft's new nodes as deltas/create and deltas/stage_nodes take them, numbered after `offset` changes. What the
 * rows have in common is sent once: the properties every node has with the same value (`shared`, set on every node)
 * and the labels when every node has the same (`labels`; a row carries its own only otherwise). A row leaves out an
 * identity key it does not have (a memory), which the statement reads as null. A batch of 100 memories so packs
 * two values fewer a row and 13% fewer bytes (its parameters as JSON: 29,953 -> 25,973), and costs Node 0.6 ms less
 * CPU a statement (7.09 -> 6.47 ms, p50 of 100 interleaved rounds through the driver).
 */
function nodeRows(draft: DeltaDraft, offset: number) {
  const { shared, own } = splitSharedProps(draft.nodes.map((n) => n.props));
  const first = draft.nodes[0]?.labels ?? [];
  const sameLabels = draft.nodes.every((n) => sameValue(n.labels, first));
  const nodes = draft.nodes.map((n, i) => ({
    id: n.id,
    change_id: n.changeId,
    ...(sameLabels ? {} : { labels: n.labels }),
    props: own[i],
    ...(n.identityKey === null ? {} : { identity_key: n.identityKey }),
    seq: n.seq + offset,
  }));
  return { nodes, shared, labels: sameLabels ? first : null };
}

/** The write locks of the project shapes the draft's nodes are made through, if it names any. */
function shapeLockSteps(draft: DeltaDraft, projectId: string): WriteStep[] {
  const shapeIds = shapesNamed(draft);
  if (shapeIds.length === 0) return [];
  return [
    {
      statement: ['deltas/lock_shapes', { ids: shapeIds, project_id: projectId }],
      // Deleted since the draft read it: the write runs again, and its own check answers for the shape.
      check: (rows) => {
        const missing = (rows[0]?.missing ?? []) as string[];
        if (missing.length > 0) throw new ConcurrentDeletion(`shape ${missing.join(', ')} was deleted meanwhile`);
      },
    },
  ];
}

/** The statements that stage a draft's changes in a delta that exists (staged), numbered after `offset` changes. */
function changeSteps(draft: DeltaDraft, deltaId: string, projectId: string, now: string, offset: number): WriteStep[] {
  const base = changeParams(deltaId, projectId, now, false);
  const nodes: WriteStep[] =
    draft.nodes.length > 0 ? [{ statement: ['deltas/stage_nodes', { ...base, ...nodeRows(draft, offset) }] }] : [];
  return [...shapeLockSteps(draft, projectId), ...nodes, ...linkedChangeSteps(draft, base, offset)];
}

/** The statements that stage a draft's relationships, updates and deletions (every change but new nodes). */
function linkedChangeSteps(draft: DeltaDraft, base: ReturnType<typeof changeParams>, offset: number): WriteStep[] {
  const steps: WriteStep[] = [];
  if (draft.rels.length > 0) {
    const rels = draft.rels.map((r) => ({
      id: r.id,
      change_id: r.changeId,
      type: r.type,
      from: r.from,
      to: r.to,
      props: r.props,
      seq: r.seq + offset,
    }));
    const dangling =
      'A relationship names a node that does not exist in this project (or is pending in another delta).';
    steps.push(
      checkedStep(
        'deltas/stage_relationships',
        { ...base, rels },
        rels.length,
        () => new ApiError('conflict', dangling, { check: 'dangling_relationship' }),
      ),
    );
  }
  if (draft.updates.length > 0) {
    const updates = draft.updates.map((u) => ({
      change_id: u.changeId,
      node_id: u.nodeId,
      seq: u.seq + offset,
      keys: Object.keys(u.set),
      add_labels: u.addLabels,
      remove_labels: u.removeLabels,
      new_values: Object.fromEntries(Object.entries(u.set).map(([k, v]) => [`new.${k}`, v])),
    }));
    const missing = 'An update names a node that is not committed in this project.';
    steps.push(
      checkedStep(
        'deltas/stage_updates',
        { ...base, updates },
        updates.length,
        () => new ApiError('not_found', missing),
      ),
    );
  }
  if (draft.relDeletes.length > 0) {
    const deletes = draft.relDeletes.map((d) => ({
      change_id: d.changeId,
      relationship_id: d.relationshipId,
      from: d.from,
      seq: d.seq + offset,
    }));
    const missing = 'A relationship deletion names a relationship that is not committed in this project.';
    steps.push(
      checkedStep(
        'deltas/stage_relationship_deletes',
        { ...base, deletes },
        deletes.length,
        () => new ApiError('not_found', missing),
      ),
    );
  }
  if (draft.deletes.length > 0) {
    const deletes = draft.deletes.map((d) => ({ change_id: d.changeId, node_id: d.nodeId, seq: d.seq + offset }));
    const missing = 'A deletion names a node that is not committed in this project.';
    steps.push(
      checkedStep(
        'deltas/stage_deletes',
        { ...base, deletes },
        deletes.length,
        () => new ApiError('not_found', missing),
      ),
    );
  }
  return steps;
}

/** The statement that takes a delta's write lock and reads its status (deltas/lock). */
export const lockStatement = (deltaId: string, projectId: string) =>
  ['deltas/lock', { delta_id: deltaId, project_id: projectId }] as const;

/** The statement that locks what a delta touches (deltas/lock_touched), before its guard or its revert. */
export const lockTouchedStatement = (deltaId: string) => ['deltas/lock_touched', { delta_id: deltaId }] as const;

/**
 * Takes the delta's write lock and checks it is in the state the action needs (404 when it is not
 * a delta of the project, 409 naming its status otherwise).
 */
async function lockDelta(
  tx: Tx,
  deltaId: string,
  projectId: string,
  required: 'staged' | 'applied',
  action: string,
): Promise<void> {
  const lock = await tx.one(...lockStatement(deltaId, projectId));
  if (!lock) throw notFound('delta', deltaId);
  if (lock.status !== required) {
    throw conflict(
      `Delta ${deltaId} is ${String(lock.status)}; only ${required === 'staged' ? 'a staged' : 'an applied'} ` +
        `delta can be ${action}.`,
      { delta_id: deltaId, status: lock.status },
    );
  }
}

/** Promotes a staged delta inside the caller's transaction; refuses anything not staged. */
export async function applyStaged(
  tx: Tx,
  deltaId: string,
  actor: Actor,
  now: string,
  overrideReason: string | null,
  guard: ApplyGuard,
): Promise<void> {
  await lockDelta(tx, deltaId, actor.projectId, 'staged', 'applied');
  // What it touches is locked before the guard judges it: a correction of one of those nodes has then either
  // committed, and the guard sees it, or waits for this apply (a correction committing between the guard and
  // the writes below made a staged delete leave the correction's fact edge pointing at nothing).
  await tx.run(...lockTouchedStatement(deltaId));
  const overridden = await guard(tx, deltaId, actor, overrideReason);
  await runSteps(tx, promoteSteps(deltaId, actor, now, overrideReason, overridden));
}

/**
 * The statements that promote a locked, guarded staged delta, in order, sent together (one round trip: none
 * depends on an earlier one's answer). What the delta creates or updates joins the embedding queue in this
 * transaction, and the webhook outbox gets one delta.applied.
 */
export function promoteSteps(
  deltaId: string,
  actor: Pick<Actor, 'projectId' | 'keyId'>,
  now: string,
  overrideReason: string | null,
  overridden: Record<string, unknown>[],
): WriteStep[] {
  const params = { delta_id: deltaId, now, embed: embeddingQueueEnabled() };
  const step = (name: string) => ({ statement: [name, params] as const });
  const writes: WriteStep[] = [
    step('deltas/apply_updates'),
    step('deltas/apply_relationship_deletes'),
    step('deltas/apply_deletes'),
    step('deltas/apply_deletes_remove'),
    // A staged episode whose key another delta committed meanwhile: its memories join that one (episodes/adopt).
    step('episodes/adopt'),
    step('deltas/apply_creates'),
    step('deltas/apply_relationships'),
    // The episodes its memories joined or left: their NEXT chains and counts (episodes/relink).
    { statement: relinkStep(deltaId, now, params.embed) },
  ];
  const mark = {
    ...params,
    actor: actor.keyId,
    override_reason: overrideReason,
    override_findings: overrideReason === null ? null : JSON.stringify(overridden),
  };
  return [
    ...writes,
    { statement: ['deltas/mark_applied', mark] },
    webhookEventStep(actor.projectId, 'delta.applied', deltaEventData(deltaId, 'applied')),
  ];
}

/**
 * Completes a write applied at once: its nodes and relationships were written committed by its
 * staging steps, so only updates and deletions (whose change records keep what revert needs) remain.
 */
function applyFreshSteps(draft: DeltaDraft, deltaId: string, now: string): WriteStep[] {
  const params = { delta_id: deltaId, now, embed: embeddingQueueEnabled() };
  const names: string[] = [];
  if (draft.updates.length > 0) names.push('deltas/apply_updates');
  if (draft.relDeletes.length > 0) names.push('deltas/apply_relationship_deletes');
  if (draft.deletes.length > 0) names.push('deltas/apply_deletes', 'deltas/apply_deletes_remove');
  const steps: WriteStep[] = names.map((name) => ({ statement: [name, params] }));
  // The episodes its memories joined or left (a write without episodes sends no statement for them).
  if (draft.episodes.size > 0) steps.push({ statement: relinkStep(deltaId, now, params.embed) });
  return steps;
}

/** A draft, or a builder run inside the write transaction (to resolve against committed data). */
export type DraftSource = DeltaDraft | ((tx: Tx) => Promise<DeltaDraft>);

const statusOf = (apply: boolean) => (apply ? 'applied' : 'staged');

/**
 * A draft known before its write (it read nothing) whose write is deltas/create alone (new nodes, no shape to lock,
 * nothing to update or delete) is written as one auto-commit statement (Graph.writeAlone): no BEGIN, no COMMIT, one
 * round trip. False, having written nothing, when it must take a transaction (the key's check cannot go with it,
 * the project has a webhook endpoint, or the statement found no project): writeGoverned's transaction then runs
 * as before. docs/performance.md, "Writes", has the figures.
 */
async function writtenAlone(
  graph: Graph,
  draft: DeltaDraft,
  actor: Actor,
  now: string,
  deltaId: string,
  apply: boolean,
): Promise<boolean> {
  const steps = [
    ...stageDeltaSteps(draft, actor, now, deltaId, apply),
    ...(apply ? applyFreshSteps(draft, deltaId, now) : []),
  ];
  const [step] = steps;
  if (steps.length !== 1 || !step || step.statement[0] !== CREATE_DELTA || outboxExpected(actor.projectId))
    return false;
  const rows = await graph.writeAlone(
    CREATE_DELTA,
    { ...step.statement[1], alone: true },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'governed-write' },
  );
  if (!rows) return false;
  step.check?.(rows);
  return true;
}

/**
 * The governed write: stage the draft, and apply it in the same transaction when asked. A write
 * that cannot be applied (a uniqueness collision, a dangling reference) leaves nothing but a
 * failed delta record carrying the reason. A collision with a concurrent write is retried once,
 * since the builder then resolves against what that write committed.
 */
export async function writeGoverned(
  graph: Graph,
  source: DraftSource,
  actor: Actor,
  asked: boolean,
): Promise<WriteOutcome> {
  // A key whose writes stage (gks key create --writes stage) never applies at once, whatever it asks.
  const apply = asked && actor.stageWrites !== true;
  let lastError: ApiError | undefined;
  let draft: DeltaDraft | undefined;
  const now = new Date().toISOString();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const deltaId = crypto.randomUUID();
    try {
      if (typeof source !== 'function') {
        draft = source;
        if (await writtenAlone(graph, source, actor, now, deltaId, apply)) return { deltaId, status: statusOf(apply) };
      }
      await graph.writeCarrying(
        'auth/key_standing',
        async (tx) => {
          draft = typeof source === 'function' ? await source(tx) : source;
          const status = apply ? 'applied' : 'staged';
          // One round trip: the delta, its changes and their completion, in order. The outbox event follows only
          // when deltas/create says the project may have a webhook endpoint: a statement costs the engine work
          // of its own, and most projects have none.
          // deltas/create also carries the request's standing check (Graph.writeCarrying), settled before any
          // other check: a refused key answers its refusal, whatever else the write met.
          const standing = tx.carryStanding();
          const steps = [
            ...stageDeltaSteps(draft, actor, now, deltaId, apply, standing),
            ...(apply ? applyFreshSteps(draft, deltaId, now) : []),
          ];
          const createAt = steps.findIndex((s) => s.statement[0] === CREATE_DELTA);
          const answers = await runSteps(tx, steps, (all) => {
            // No row (the project is gone): the check is left to be read on its own (Graph.withStanding).
            const row = all[createAt]?.[0];
            if (standing && row) standing.settle((row.standing ?? undefined) as Row | undefined);
          });
          const created = answers[createAt]?.[0];
          noteOutbox(actor.projectId, mayHaveSubscribers(created?.webhook_endpoints));
          if (mayHaveSubscribers(created?.webhook_endpoints))
            await runSteps(tx, [webhookEventStep(actor.projectId, `delta.${status}`, deltaEventData(deltaId, status))]);
        },
        { request_id: actor.requestId, key_id: actor.keyId, purpose: 'governed-write' },
      );
      return { deltaId, status: apply ? 'applied' : 'staged' };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      lastError = error;
      if (typeof source !== 'function') break;
    }
  }
  const deltaId = crypto.randomUUID();
  const failure = lastError as ApiError;
  await graph.write((tx) =>
    tx.run('deltas/record_failed', {
      delta_id: deltaId,
      project_id: actor.projectId,
      origin: draft ? originOf(draft, actor) : (actor.via ?? 'unknown'),
      summary: draft?.summary ?? '',
      key_id: actor.keyId,
      request_id: actor.requestId,
      now,
      reason: failure.message,
    }),
  );
  return { deltaId, status: 'failed', error: failure };
}

export async function applyDelta(
  graph: Graph,
  deltaId: string,
  actor: Actor,
  overrideReason: string | null,
  guard: ApplyGuard,
): Promise<void> {
  const now = new Date().toISOString();
  // The review path: an explicit apply honours the guard it is given (the preflight verdict).
  await graph.write((tx) => applyStaged(tx, deltaId, actor, now, overrideReason, guard), {
    request_id: actor.requestId,
    key_id: actor.keyId,
    purpose: 'delta:apply',
  });
}

export async function rejectDelta(graph: Graph, deltaId: string, actor: Actor, reason: string | null): Promise<void> {
  const now = new Date().toISOString();
  await graph.write(
    async (tx) => {
      await lockDelta(tx, deltaId, actor.projectId, 'staged', 'rejected');
      await runSteps(tx, rejectSteps(deltaId, actor, now, reason));
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'delta:reject' },
  );
}

/** The statements that reject a locked staged delta, in order, sent together (none reads an earlier answer). */
export function rejectSteps(
  deltaId: string,
  actor: Pick<Actor, 'projectId' | 'keyId'>,
  now: string,
  reason: string | null,
): WriteStep[] {
  return [
    { statement: ['deltas/reject_relationships', { delta_id: deltaId }] },
    { statement: ['deltas/destroy_created_secrets', { delta_id: deltaId }] },
    { statement: ['deltas/reject_nodes', { delta_id: deltaId }] },
    { statement: ['deltas/mark_rejected', { delta_id: deltaId, now, actor: actor.keyId, reason }] },
    webhookEventStep(actor.projectId, 'delta.rejected', deltaEventData(deltaId, 'rejected')),
  ];
}

export async function revertDelta(graph: Graph, deltaId: string, actor: Actor, reason: string | null): Promise<void> {
  const now = new Date().toISOString();
  await graph.write(
    async (tx) => {
      await lockDelta(tx, deltaId, actor.projectId, 'applied', 'reverted');
      // What it touched is locked before its dependents are looked for: a concurrent write to it is then
      // either committed and found below, or waits for this revert (cypher/deltas/lock_touched.cypher).
      await tx.run(...lockTouchedStatement(deltaId));
      const dependents = await tx.run('deltas/revert_dependents', { delta_id: deltaId });
      if (dependents.length > 0) {
        const ids = dependents.map((d) => String(d.id));
        throw conflict(
          `Delta ${deltaId} cannot be reverted: later deltas depend on it (${ids.join(', ')}). Revert or ` +
            'reject those first.',
          {
            delta_id: deltaId,
            dependent_delta_ids: ids,
          },
        );
      }
      const params = { delta_id: deltaId, now };
      // What the delta created stays readable by known_at between its apply and now (docs/facts.md).
      await tx.run('deltas/revert_snapshot_creates', params);
      await tx.run('deltas/revert_relationships', params);
      await tx.run('deltas/destroy_created_secrets', params);
      await tx.run('deltas/revert_creates', params);
      await tx.run('deltas/revert_updates', params);
      await tx.run('deltas/revert_deletes', params);
      await tx.run('deltas/revert_deleted_relationships', params);
      await tx.run('deltas/revert_relationship_deletes', params);
      // The episodes its memories joined or left, without them (or with them again, for a reverted delete).
      await relinkEpisodes(tx, deltaId, now, embeddingQueueEnabled());
      await queueRevertedForEmbedding(tx, params);
      await queueRevertedForMentions(tx, params);
      await tx.run('deltas/revert_drop_snapshots', params);
      await tx.run('deltas/mark_reverted', { ...params, actor: actor.keyId, reason });
      await emitWebhookEvent(tx, actor.projectId, 'delta.reverted', deltaEventData(deltaId, 'reverted'));
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'delta:revert' },
  );
}

/**
 * Removes, in one transaction, a delta a request wrote at once and must take back before it answers
 * (its ids never reached a client): the nodes it created with their relationships, its change
 * records and the delta itself. Used when a multi-step request fails after its first write.
 */
export async function discardFreshDelta(graph: Graph, deltaId: string, actor: Actor): Promise<void> {
  const write = async (tx: Tx) => {
    await tx.run('deltas/destroy_created_secrets', { delta_id: deltaId });
    return tx.run('deltas/discard_fresh', { delta_id: deltaId, project_id: actor.projectId });
  };
  await graph.write(write, {
    request_id: actor.requestId,
    key_id: actor.keyId,
    purpose: 'delta:discard',
  });
}
