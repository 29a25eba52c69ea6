// Versioned definitions (shapes, slices): a new version is published only from the latest one.
import { ApiError, conflict } from '../errors/catalogue.js';

/** The version of the same name that is newer than the one asked from: staged in a delta, or committed. */
export interface NewerVersion {
  id: unknown;
  version: unknown;
  pending: unknown;
  delta_id?: unknown;
}

/**
 * 409 for a new version asked from one that is not the latest: the newer version is staged (apply or reject it
 * first) or committed (publish from it). `kind` names the record in the message (Shape, Slice) and its id field.
 */
export function notLatestVersion(
  kind: 'Shape' | 'Slice',
  id: string,
  previous: { name: string; version: number },
  newer: NewerVersion,
): ApiError {
  return conflict(
    newer.pending
      ? `Version ${String(newer.version)} of ${previous.name} is staged in delta ${String(newer.delta_id)}; ` +
          'apply or reject it first.'
      : `${kind} ${id} is version ${previous.version}; the latest version of ${previous.name} is ` +
          `${String(newer.id)} (v${String(newer.version)}). Publish from the latest.`,
    {
      [kind === 'Shape' ? 'shape_id' : 'slice_id']: id,
      latest_version_id: newer.id,
      latest_version: newer.version,
      ...(newer.pending ? { delta_id: newer.delta_id } : {}),
    },
  );
}
