import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ANALYSIS_V8_FLAGS } from './v8-tuning.js';

const built = fileURLToPath(new URL('../../dist/runtime/v8-tuning.js', import.meta.url));

/** Runs the built module in a fresh node process: flags are process-wide, never set in the test process. */
function tuneInChild(tuning: string): { status: number | null; stderr: string; result: unknown } {
  const script = `const m = await import(${JSON.stringify(built)}); const first = m.tuneV8ForAnalysis(); console.log(JSON.stringify({ first, same: first === m.tuneV8ForAnalysis() }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, CODEHEALTH_V8_TUNING: tuning } });
  return { status: child.status, stderr: child.stderr, result: child.status === 0 ? JSON.parse(child.stdout) : undefined };
}

describe('tuneV8ForAnalysis', () => {
  it('applies the analysis flags once, and V8 accepts each of them (an unknown flag is reported on stderr)', () => {
    const child = tuneInChild('');
    expect(child).toEqual({ status: 0, stderr: '', result: { first: [...ANALYSIS_V8_FLAGS], same: true } });
  });

  it('leaves V8 alone with CODEHEALTH_V8_TUNING=0', () => {
    expect(tuneInChild('0')).toEqual({ status: 0, stderr: '', result: { first: [], same: true } });
  });
});
