// A loop's events and checkpoints, read from its Temporal workflow history: each history event is
// an event (sequence = history event id); each completed iteration activity is a checkpoint.
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import type { Checkpoint, FinishRequest, IterationRequest, LoopResult, SourceSummary } from './types.js';

// @temporalio/proto is CommonJS: its namespace object comes through the default export under ESM.
const { temporal } = proto;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payloads = proto.temporal.api.common.v1.IPayloads | null | undefined;

export const ITERATION_ACTIVITIES = new Set(['extractAndStage', 'gatherContext']);

export interface LoopEvent {
  sequence: number;
  type: string;
  time: string;
  activity_name: string | null;
  iteration: number | null;
  attempt: number | null;
  summary: string;
}

export interface LoopCheckpoint extends Checkpoint {
  sequence: number;
  time: string;
}

/** Every event of the run so far, paging through the history (1,000 events a page). */
export async function readHistory(
  client: Client,
  namespace: string,
  workflowId: string,
  upTo = Infinity,
  runId?: string,
): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.getWorkflowExecutionHistory({
      namespace,
      execution: { workflowId, ...(runId ? { runId } : {}) },
      maximumPageSize: 1000,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    events.push(...(page.history?.events ?? []));
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken && Number(events[events.length - 1]?.eventId ?? 0) < upTo);
  return events;
}

function decode<T>(payloads: Payloads): T | undefined {
  const first = payloads?.payloads?.[0];
  if (!first) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<T>(first as Parameters<typeof defaultPayloadConverter.fromPayload>[0]);
  } catch {
    return undefined;
  }
}

function isoTime(event: HistoryEvent): string {
  const t = event.eventTime;
  if (!t) return '';
  return new Date(Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}

function typeName(event: HistoryEvent): string {
  const name = temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? 'EVENT_TYPE_UNSPECIFIED';
  return name.replace(/^EVENT_TYPE_/, '').toLowerCase();
}

interface Scheduled {
  name: string;
  iteration: number | null;
}

function completedSummary(name: string, result: unknown, iteration: number | null): string {
  if (ITERATION_ACTIVITIES.has(name)) {
    const c = result as Checkpoint | undefined;
    return c
      ? `Iteration ${c.iteration}: quality ${c.quality}, ${c.changed} (${c.entities_staged} entities, ` +
          `${c.relationships_staged} relationships staged)`
      : `${name} completed`;
  }
  if (name === 'loadSources') {
    const sources = (result as SourceSummary[] | undefined) ?? [];
    return `Loaded ${sources.length} source(s), ${sources.reduce((n, s) => n + s.characters, 0)} characters`;
  }
  if (name === 'finishLoop') {
    const r = result as LoopResult | undefined;
    return r
      ? `Loop ${r.status} after ${r.iterations} iteration(s)${r.stop_reason ? ` (${r.stop_reason})` : ''}; ` +
          `${r.credits_spent} credits spent`
      : 'Loop settled';
  }
  if (name === 'beginLoop') return 'Loop marked running';
  return `${name} completed${iteration ? ` (iteration ${iteration})` : ''}`;
}

/** Turns history events into the API's events, resolving each activity event to its activity name. */
export function toLoopEvents(events: HistoryEvent[]): LoopEvent[] {
  const scheduled = new Map<number, Scheduled>();
  return events.map((event) => {
    const sequence = Number(event.eventId ?? 0);
    const base = {
      sequence,
      type: typeName(event),
      time: isoTime(event),
      activity_name: null as string | null,
      iteration: null as number | null,
      attempt: null as number | null,
    };
    const a = event.activityTaskScheduledEventAttributes;
    if (a) {
      const name = a.activityType?.name ?? 'activity';
      const request = decode<IterationRequest | FinishRequest>(a.input);
      const iteration = request && 'iteration' in request ? request.iteration : null;
      scheduled.set(sequence, { name, iteration });
      return {
        ...base,
        activity_name: name,
        iteration,
        summary: `Scheduled ${name}${iteration ? ` (iteration ${iteration})` : ''}`,
      };
    }
    const ref = (id: unknown): Scheduled => scheduled.get(Number(id ?? 0)) ?? { name: 'activity', iteration: null };
    /** An event of a scheduled activity: its name and iteration, and what happened. */
    const ofActivity = (s: Scheduled, summary: string) => ({
      ...base,
      activity_name: s.name,
      iteration: s.iteration,
      summary,
    });
    if (event.activityTaskStartedEventAttributes) {
      const s = ref(event.activityTaskStartedEventAttributes.scheduledEventId);
      const attempt = event.activityTaskStartedEventAttributes.attempt ?? 1;
      return {
        ...base,
        activity_name: s.name,
        iteration: s.iteration,
        attempt,
        summary: `Started ${s.name} (attempt ${attempt})`,
      };
    }
    if (event.activityTaskCompletedEventAttributes) {
      const s = ref(event.activityTaskCompletedEventAttributes.scheduledEventId);
      return ofActivity(
        s,
        completedSummary(s.name, decode(event.activityTaskCompletedEventAttributes.result), s.iteration),
      );
    }
    if (event.activityTaskFailedEventAttributes) {
      const s = ref(event.activityTaskFailedEventAttributes.scheduledEventId);
      return ofActivity(
        s,
        `${s.name} failed: ${event.activityTaskFailedEventAttributes.failure?.message ?? 'unknown error'}`,
      );
    }
    if (event.activityTaskTimedOutEventAttributes) {
      const s = ref(event.activityTaskTimedOutEventAttributes.scheduledEventId);
      return ofActivity(s, `${s.name} timed out; Temporal retries it`);
    }
    if (event.activityTaskCanceledEventAttributes) {
      const s = ref(event.activityTaskCanceledEventAttributes.scheduledEventId);
      return ofActivity(s, `${s.name} cancelled`);
    }
    if (event.workflowExecutionStartedEventAttributes) {
      const w = event.workflowExecutionStartedEventAttributes;
      return {
        ...base,
        summary: `Loop started as ${w.workflowType?.name ?? 'workflow'} on task queue ${w.taskQueue?.name ?? ''}`,
      };
    }
    if (event.workflowExecutionCompletedEventAttributes) return { ...base, summary: 'Loop workflow completed' };
    if (event.workflowExecutionFailedEventAttributes)
      return {
        ...base,
        summary: `Loop workflow failed: ${event.workflowExecutionFailedEventAttributes.failure?.message ?? ''}`,
      };
    if (event.workflowExecutionCanceledEventAttributes) return { ...base, summary: 'Loop workflow cancelled' };
    if (event.workflowExecutionCancelRequestedEventAttributes) return { ...base, summary: 'Cancellation requested' };
    if (event.upsertWorkflowSearchAttributesEventAttributes) {
      const status = decode<string[]>({
        payloads: [
          event.upsertWorkflowSearchAttributesEventAttributes.searchAttributes?.indexedFields?.LoopStatus ?? {},
        ],
      });
      return { ...base, summary: `LoopStatus set to ${status?.[0] ?? '?'}` };
    }
    return { ...base, summary: base.type.replace(/_/g, ' ') };
  });
}

/** The result of every completed iteration activity, in order. */
export function toCheckpoints(events: HistoryEvent[]): LoopCheckpoint[] {
  const names = new Map<number, string>();
  const out: LoopCheckpoint[] = [];
  for (const event of events) {
    const a = event.activityTaskScheduledEventAttributes;
    if (a) names.set(Number(event.eventId ?? 0), a.activityType?.name ?? '');
    const c = event.activityTaskCompletedEventAttributes;
    if (c && ITERATION_ACTIVITIES.has(names.get(Number(c.scheduledEventId ?? 0)) ?? '')) {
      const checkpoint = decode<Checkpoint>(c.result);
      if (checkpoint) out.push({ ...checkpoint, sequence: Number(event.eventId ?? 0), time: isoTime(event) });
    }
  }
  return out;
}
