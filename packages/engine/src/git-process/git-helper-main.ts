// The git helper process (see git-helper.ts): a small Node process that runs git commands its
// parent sends over IPC and sends back what they printed. It exits when its parent goes away or
// stops it (the IPC channel closes), killing the gits it is running.
import { spawnGit } from './spawn-git.js';
import type { HelperReply, HelperRequest } from './git-helper.js';

const running = new AbortController();

async function answer({ id, request }: HelperRequest): Promise<void> {
  const result = await spawnGit(request, running.signal);
  if (!process.connected) return;
  const reply: HelperReply = { id, result };
  process.send!(reply, (error: Error | null) => {
    // The parent went away meanwhile: 'disconnect' ends this process.
    if (error) process.exitCode = 1;
  });
}

process.on('message', (message: HelperRequest) => void answer(message));
process.on('disconnect', () => {
  running.abort();
  process.exit(0);
});
