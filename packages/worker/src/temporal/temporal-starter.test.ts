// The starter against a Temporal that is not there: closing it while a call is still being retried
// ends that call and leaves the process running normally (the client's retry timer used to throw
// "Channel has been shut down" out of the event loop: `codehealth serve` exited 1 on SIGTERM).
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../../dist/temporal/temporal-starter.js', import.meta.url));

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('TemporalWorkflowStarter.close', () => {
  it('ends a health check still retrying an unreachable server, and the process exits normally', async (context) => {
    if (!existsSync(built)) {
      if (process.env.CI) throw new Error('packages/worker is not built (npm run build)');
      console.warn('SKIPPED: packages/worker/dist is not built (npm run build)');
      return context.skip();
    }
    const port = await closedPort();
    // The child waits for its event loop to drain: an exception from a timer after close() ends it with code 1.
    const script = `
      const { TemporalWorkflowStarter } = await import(${JSON.stringify(built)});
      const starter = await TemporalWorkflowStarter.connect({ address: '127.0.0.1:${port}' });
      let settled;
      const check = starter.check().then(() => (settled = 'resolved'), (error) => (settled = 'rejected: ' + error.message));
      // Closed once the first connection attempt has failed and the client is retrying.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await starter.close();
      await check;
      console.log(settled);
    `;
    const child = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(child.stderr).not.toContain('Channel has been shut down');
    expect(child.code).toBe(0);
    // Ended by the check's own deadline (the /healthz one), not left to the client's retries (about 20 s).
    expect(child.stdout.trim()).toMatch(/^rejected: .*DEADLINE_EXCEEDED/);
  });
});
