// The node:http listener of the REST host: serves a fetch handler through srvx's Node adapter
// (what h3's own `toNodeHandler` uses) and shuts down gracefully: stop accepting, let in-flight
// requests finish, and cut what is still open (event streams) after a grace period.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'srvx/node';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface RunningServer {
  /** `http://host:port` as a client on this machine reaches it (wildcard hosts become loopback). */
  url: string;
  /** The bound port (PORT=0 picks a free one). */
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  /** How long in-flight requests get to finish on shutdown (default 10 s). */
  shutdownGraceMs?: number;
}

export class ListenError extends Error {
  override readonly name = 'ListenError';
  readonly expose = true;
}

/** The TCP peer of a request served by this listener; never a forwarded-for header. */
export function peerAddressOf(request: Request): string | undefined {
  const runtime = (request as { runtime?: { node?: { req?: { socket?: { remoteAddress?: string } } } } }).runtime;
  return runtime?.node?.req?.socket?.remoteAddress;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

export function urlOf(host: string, port: number): string {
  const shown = WILDCARDS.has(host) ? (host === '::' ? '::1' : '127.0.0.1') : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function describeListenError(error: NodeJS.ErrnoException, host: string, port: number): ListenError {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ListenError(`port ${port} on ${host} is already in use; stop the other server or set PORT`);
    case 'EACCES':
      return new ListenError(`not allowed to listen on port ${port} of ${host}; choose a port above 1023 with PORT`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ListenError(`cannot listen on HOST ${host}: no such local address`);
    default:
      return new ListenError(`cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  }
}

export async function listen(handler: FetchHandler, options: ListenOptions): Promise<RunningServer> {
  // srvx types its adapter for HTTP/1 and HTTP/2 requests alike; node:http hands it HTTP/1 ones.
  const server: Server = createServer(toNodeHandler(handler) as RequestListener);
  // Keep-alive sockets must not outlive a shutdown by minutes: Node's default timeouts suffice,
  // but headers must arrive promptly (slow-loris).
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(describeListenError(error, options.host, options.port));
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: urlOf(options.host, port),
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
        server.close(() => {
          clearTimeout(grace);
          resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open until they time out.
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
