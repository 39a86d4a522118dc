// Progress of a run on stderr: one line redrawn in place on a terminal, a few plain lines in logs
// (a CI log with a line per parsed file would bury the report).
import type { ProgressEvent } from '@codehealth/engine';
import type { OutputStream } from './io.js';

export interface ProgressReporter {
  onProgress(event: ProgressEvent): void;
  /** Clears the terminal line; call before anything else is written to the stream. */
  finish(): void;
}

const REDRAW_MS = 80;

/** The engine's messages usually carry their counts already; add only what they leave out. */
function describe(event: ProgressEvent): string {
  const counted = event.done !== undefined && event.total !== undefined ? `${event.done}/${event.total}` : undefined;
  const count = counted && !event.message.includes(counted) ? ` ${counted}` : '';
  const percent = event.percent !== undefined && event.stage !== 'done' ? ` (${Math.round(event.percent)}%)` : '';
  return `${event.stage}: ${event.message}${count}${percent}`;
}

export function createProgressReporter(stream: OutputStream, enabled: boolean): ProgressReporter {
  if (!enabled) return { onProgress: () => {}, finish: () => {} };
  if (stream.isTTY) return ttyReporter(stream);
  let stage: string | undefined;
  let quarter = -1;
  return {
    onProgress(event) {
      const q = event.percent === undefined ? -1 : Math.floor(event.percent / 25);
      if (event.stage === stage && q <= quarter) return;
      if (event.stage !== stage) quarter = -1;
      stage = event.stage;
      quarter = Math.max(quarter, q);
      stream.write(`${describe(event)}\n`);
    },
    finish: () => {},
  };
}

function ttyReporter(stream: OutputStream): ProgressReporter {
  let last = 0;
  let stage: string | undefined;
  let drawn = false;
  return {
    onProgress(event) {
      const now = Date.now();
      if (event.stage === stage && now - last < REDRAW_MS) return;
      last = now;
      stage = event.stage;
      // A line longer than the terminal wraps, and `\r` would then redraw only its last row.
      const width = Math.max(20, (stream.columns || 80) - 1);
      const line = describe(event);
      stream.write(`\r\u001b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
