import { createServer } from 'node:net';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen, ListenError, peerAddressOf, urlOf } from './http-server.js';

describe('the node:http listener', () => {
  it('serves a fetch handler on a free port and hands it the TCP peer', async () => {
    const server = await listen(async (request) => Response.json({ path: new URL(request.url).pathname, peer: peerAddressOf(request) }), {
      host: '127.0.0.1',
      port: 0,
    });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const response = await fetch(`${server.url}/some/path?x=1`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(await response.json()).toEqual({ path: '/some/path', peer: '127.0.0.1' });
    } finally {
      await server.close();
    }
  });

  it('on close, lets an in-flight request finish and accepts no new connection', async () => {
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const server = await listen(
      async () => {
        release();
        await blocked;
        return new Response('finished');
      },
      { host: '127.0.0.1', port: 0 },
    );
    const answer = fetch(`${server.url}/slow`).then((r) => r.text());
    await started;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    // A new connection is refused, and by then the close is still waiting for the request in flight.
    await expect(fetch(`${server.url}/new`)).rejects.toThrow();
    expect(closed).toBe(false);
    unblock();
    expect(await answer).toBe('finished');
    await closing;
    expect(closed).toBe(true);
  });

  it('cuts connections still open after the grace period (event streams)', async () => {
    const server = await listen(
      () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('data: 1\n\n')) })),
      { host: '127.0.0.1', port: 0, shutdownGraceMs: 200 },
    );
    let streaming!: () => void;
    const firstEvent = new Promise<void>((resolve) => (streaming = resolve));
    const ended = new Promise<string>((resolve) => {
      httpRequest(`${server.url}/stream`, (res) => {
        res.on('data', () => streaming());
        res.on('close', () => resolve('closed'));
      }).end();
    });
    await firstEvent;
    // The stream never ends by itself: without the cut, close() would not return (the test's timeout).
    await server.close();
    expect(await ended).toBe('closed');
  });

  it('reports a port in use as a ListenError naming the port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const failure = listen(() => new Response('x'), { host: '127.0.0.1', port });
      await expect(failure).rejects.toThrow(ListenError);
      await expect(failure).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use; stop the other server or set PORT`);
    } finally {
      blocker.close();
    }
  });

  it('shows wildcard hosts as loopback URLs and brackets IPv6', () => {
    expect(urlOf('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080');
    expect(urlOf('::', 8080)).toBe('http://[::1]:8080');
    expect(urlOf('::1', 1)).toBe('http://[::1]:1');
    expect(urlOf('localhost', 80)).toBe('http://localhost:80');
  });
});
