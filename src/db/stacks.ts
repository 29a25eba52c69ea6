// The driver's stack capture, made cheap. neo4j-driver captures and formats its caller's stack for every Result it
// makes, to put on the error should the statement fail. Formatting a stack is the costly part, and under tsx's
// source maps it cost about 1 ms of Node CPU per request (bench probe, interleaved blocks of 16: a read by id 8.2 ->
// 7.2 ms, a single write 9.9 -> 8.8 ms): a tenth of what the API spends on a read. Results are made with no stack
// here; a statement that fails is given its awaiting caller's stack instead (restacked), where it is rare.

/** Starts a driver statement (its Result made synchronously by `start`) without the driver's stack capture. */
export function unstacked<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * A driver error that reaches the caller unmapped (a bug: a statement the engine refuses) given the stack of where
 * it is thrown from, with the callers awaiting it, in place of the empty one its Result captured.
 */
export function restacked<T>(error: T): T {
  if (error instanceof Error && !/\n\s+at /.test(error.stack ?? '')) {
    const here = new Error(error.message).stack ?? '';
    error.stack = `${String(error)}${here.slice(here.indexOf('\n'))}`;
  }
  return error;
}
