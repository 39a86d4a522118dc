// Failures of the worker threads and their messages: a thread that died, a pool used after it
// closed, a rules worker without a summary or rule it was promised. Bugs or a lost thread, never
// bad input; a run falls back to the main thread where it can.
export class WorkerThreadError extends Error {
  override name = 'WorkerThreadError';
}
