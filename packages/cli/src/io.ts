// The command's view of its process: streams, environment and interrupts, passed in so that tests
// can run commands in process and read what they wrote.
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Calls `handler` on SIGINT until the returned function is called. */
  onInterrupt(handler: () => void): () => void;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      let interrupted = false;
      // The first Ctrl-C asks the run to stop cleanly; a second one means "now".
      const listener = () => {
        if (interrupted) process.exit(130);
        interrupted = true;
        handler();
      };
      process.on('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}

/** NO_COLOR counts when set to anything but the empty string (https://no-color.org). */
export function colorAllowed(stream: OutputStream, env: CliIo['env']): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}
