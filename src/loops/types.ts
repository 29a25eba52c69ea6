// Types shared by the loop workflows (type-only imports, so workflows stay deterministic) and the
// activities that do the I/O. Everything here crosses Temporal as JSON and appears in its history.

export type LoopKind = 'graph_extraction' | 'hydrate';
export type LoopEffort = 'agentic' | 'agentic_plus';
export type LoopStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
/**
 * Why a loop ended: the threshold was met, an iteration staged nothing new, it ran out of iterations, or it was
 * cancelled or failed.
 */
export const STOP_REASONS = ['quality_reached', 'no_progress', 'max_iterations', 'cancelled', 'failed'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface LoopInput {
  loopId: string;
  kind: LoopKind;
  projectId: string;
  organizationId: string;
  deltaId: string;
  keyId: string;
  goal: string;
  subject: string | null;
  /** hydrate: the committed slice the loop gathers through (absent in runs started before slices). */
  sliceId?: string | null;
  sourceIds: string[];
  shapeIds: string[];
  effort: LoopEffort;
  maxIterations: number;
  qualityThreshold: number;
  extractor: 'builtin' | 'llm';
  creditsReserved: number;
  /** Credits one iteration costs (the estimate is this times maxIterations). */
  creditsPerIteration: number;
}

export interface SourceSummary {
  id: string;
  title: string | null;
  chunks: number;
  characters: number;
}

export interface IterationRequest {
  input: LoopInput;
  iteration: number;
}

/** One iteration's result: the checkpoint read back from history by GET /v1/loops/{id}/checkpoints. */
export interface Checkpoint {
  iteration: number;
  quality: number;
  quality_components: Record<string, number>;
  entities_staged: number;
  relationships_staged: number;
  entities_new: number;
  relationships_new: number;
  resolved_to_existing: number;
  rejected: number;
  characters: number;
  changed: string;
}

export interface FinishRequest {
  input: LoopInput;
  status: Exclude<LoopStatus, 'queued' | 'running'>;
  iterations: number;
  quality: number | null;
  error: string | null;
  stopReason: StopReason;
}

export interface LoopResult {
  loop_id: string;
  status: FinishRequest['status'];
  iterations: number;
  quality: number | null;
  credits_spent: number;
  delta_id: string;
  stop_reason: StopReason;
}
