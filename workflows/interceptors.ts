// Causal consistency through workflows (docs/operations.md, "Consistency across requests"): the bookmarks a
// workflow was started with (the header gks-bookmarks, set by the starting process: src/temporal/connection.ts)
// go with every activity it schedules, child it starts and run it continues as, so each activity, on whichever
// worker, begins once the graph holds what the starting request wrote. Deterministic: it only copies a header.
import type {
  ActivityInput,
  ContinueAsNewInput,
  LocalActivityInput,
  Next,
  StartChildWorkflowExecutionInput,
  WorkflowExecuteInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptorsFactory,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/** The header's name, as src/temporal/connection.ts BOOKMARKS_HEADER (workflows import no service code). */
const HEADER = 'gks-bookmarks';

type Headers = WorkflowExecuteInput['headers'];

/** Made once per workflow run: what it was started with is kept in this closure, never shared across runs. */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let carried: Headers[string] | undefined;
  const withCarried = <T extends { headers: Headers }>(input: T): T =>
    carried === undefined || input.headers[HEADER] !== undefined
      ? input
      : { ...input, headers: { ...input.headers, [HEADER]: carried } };
  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>) {
      carried = input.headers[HEADER];
      return next(input);
    },
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) =>
      next(withCarried(input)),
    scheduleLocalActivity: (
      input: LocalActivityInput,
      next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
    ) => next(withCarried(input)),
    startChildWorkflowExecution: (
      input: StartChildWorkflowExecutionInput,
      next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
    ) => next(withCarried(input)),
    continueAsNew: (input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>) =>
      next(withCarried(input)),
  };
  return { inbound: [inbound], outbound: [outbound] };
};
