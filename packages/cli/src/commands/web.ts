// `codehealth web`: serves the dashboard for a self-hosted deployment (see host/web-host.ts).
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { readWebConfig, startWebHost } from '../host/web-host.js';
import { stopRequested } from './serve.js';

export const WEB_USAGE = `Usage: codehealth web

Serve the web dashboard of a self-hosted deployment on its own port (the spec's frontend).

Environment: BACKEND_URL (required: the API server; its CORS_ORIGINS must name this frontend's
origin), IDP_JWT_ISSUER and IDP_CLIENT_ID (OpenID Connect sign-in, authorization code with PKCE,
as a public client whose redirect URI is <this frontend>/auth/callback; the API server's
IDP_AUDIENCE must name IDP_CLIENT_ID), IDP_SCOPE (default "openid email profile"), PORT (default
3000), HOST (default 0.0.0.0). Without IDP_JWT_ISSUER, users sign in with an API key.

Options:
  -h, --help       show this help
`;

export async function runWeb(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.stdout.write(WEB_USAGE);
    return EXIT.ok;
  }
  if (argv.length > 0) throw new UsageError(`web takes no arguments (see 'codehealth web --help')`);
  const config = readWebConfig(io.env);
  const stop = stopRequested(io);
  try {
    const server = await startWebHost(config);
    io.stdout.write(
      `CodeHealth dashboard on ${server.url}\n  API:       ${config.backendUrl}\n  Sign-in:   ${config.oidc ? `OpenID Connect (${config.oidc.issuer}, client ${config.oidc.clientId}) or an API key` : 'API key'}\nPress Ctrl-C to stop.\n`,
    );
    const signal = await stop.signal;
    io.stderr.write(`codehealth: ${signal} received, stopping\n`);
    await server.close();
  } finally {
    stop.dispose();
  }
  return EXIT.ok;
}
