// A sync run's events, from its workflow history like a loop's (loops/history.ts reads and maps
// them); the summaries of this workflow's own activities say what each page did.
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { readHistory, toLoopEvents, type LoopEvent } from '../loops/history.js';
import type { FetchedPage, StagedPage, SyncSummary } from './activities.js';

type HistoryEvent = Awaited<ReturnType<typeof readHistory>>[number];

function decoded<T>(event: HistoryEvent): T | undefined {
  const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
  if (!payload) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<T>(payload as Parameters<typeof defaultPayloadConverter.fromPayload>[0]);
  } catch {
    return undefined;
  }
}

/** What a page or a run did to the records: "3 created, 1 updated, 0 unchanged". */
function counts(c: { created: number; updated: number; unchanged: number }): string {
  return `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`;
}

function summary(event: LoopEvent, raw: HistoryEvent): string {
  if (raw.activityTaskCompletedEventAttributes) {
    if (event.activity_name === 'fetchPage') {
      const page = decoded<FetchedPage>(raw);
      if (page)
        return page.fetched
          ? `Fetched page ${page.page_no}: ${page.count} record(s)${page.has_more ? ', more to come' : ', last page'}`
          : 'Every page was already staged';
    }
    if (event.activity_name === 'stagePage') {
      const page = decoded<StagedPage>(raw);
      if (page)
        return page.already_staged
          ? `Page ${page.page_no} was already staged`
          : `Staged page ${page.page_no}: ${counts(page)}`;
    }
    if (event.activity_name === 'finishSync') {
      const s = decoded<SyncSummary>(raw);
      if (s)
        return (
          `Sync ${s.status} after ${s.pages} page(s): ${counts(s)}` + (s.apply_outcome ? ` (${s.apply_outcome})` : '')
        );
    }
    if (event.activity_name === 'beginSync') return 'Sync marked running';
  }
  if (raw.workflowExecutionContinuedAsNewEventAttributes)
    return 'Sync continues in a new workflow run (history kept small); it resumes at its next page';
  return event.summary.replace(/^Loop /, 'Sync ');
}

/**
 * The events of a sync from its first workflow run on, following each continue-as-new into the next
 * run; sequences keep counting across runs (a later run's event n is the earlier runs' total plus n).
 */
export async function syncEvents(
  client: Client,
  namespace: string,
  workflowId: string,
  firstRunId: string,
  upTo: number,
): Promise<LoopEvent[]> {
  const out: LoopEvent[] = [];
  let runId: string | undefined = firstRunId;
  let offset = 0;
  while (runId !== undefined && offset < upTo) {
    const raw = await readHistory(client, namespace, workflowId, upTo - offset, runId);
    const shift = offset;
    out.push(
      ...toLoopEvents(raw).map((event, i) => ({
        ...event,
        sequence: event.sequence + shift,
        iteration: null,
        summary: summary(event, raw[i]!),
      })),
    );
    const last = raw[raw.length - 1];
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    offset += Number(last?.eventId ?? 0);
  }
  return out;
}
