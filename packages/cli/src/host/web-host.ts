// `codehealth web`: the self-hosted frontend process of the spec's reference deployment. It serves
// the built dashboard on its own port; the page talks to BACKEND_URL (whose CORS_ORIGINS must name
// this frontend) and signs users in through OpenID Connect (authorization code with PKCE) against
// IDP_JWT_ISSUER as the public client IDP_CLIENT_ID. The API accepts the resulting ID tokens when
// its IDP_AUDIENCE names that client.
import { createStaticSite } from '@codehealth/http';
import { HostConfigError } from './config.js';

type Env = Readonly<Record<string, string | undefined>>;
import { listen, type RunningServer } from './http-server.js';
import { webRoot } from './web-root.js';

export interface WebConfig {
  host: string;
  port: number;
  backendUrl: string;
  oidc?: { issuer: string; clientId: string; scope: string };
}

const DEFAULT_WEB_PORT = 3000;

function httpUrl(value: string | undefined): URL | undefined {
  try {
    const url = new URL(value ?? '');
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export function readWebConfig(env: Env): WebConfig {
  const problems: string[] = [];
  const value = (name: string) => env[name]?.trim() || undefined;
  const backend = httpUrl(value('BACKEND_URL'));
  if (!value('BACKEND_URL')) problems.push('BACKEND_URL is required (the API server, e.g. https://api.example.com)');
  else if (!backend) problems.push('BACKEND_URL must be an http(s) URL');
  const issuer = value('IDP_JWT_ISSUER');
  const clientId = value('IDP_CLIENT_ID');
  if (issuer && !httpUrl(issuer)) problems.push('IDP_JWT_ISSUER must be an http(s) URL');
  if (issuer && !clientId) problems.push('IDP_CLIENT_ID is required with IDP_JWT_ISSUER (the OpenID Connect client id of the dashboard)');
  if (clientId && !issuer) problems.push('IDP_CLIENT_ID needs IDP_JWT_ISSUER');
  const rawPort = value('PORT');
  const port = rawPort === undefined ? DEFAULT_WEB_PORT : /^\d{1,5}$/.test(rawPort) && Number(rawPort) <= 65_535 ? Number(rawPort) : NaN;
  if (Number.isNaN(port)) problems.push('PORT must be a port number from 0 to 65535');
  if (problems.length > 0) throw new HostConfigError(`cannot start: ${problems.join('; ')}. Fix it and start again.`);
  return {
    host: value('HOST') ?? '0.0.0.0',
    port,
    backendUrl: backend!.toString().replace(/\/$/, ''),
    ...(issuer && clientId ? { oidc: { issuer, clientId, scope: value('IDP_SCOPE') ?? 'openid email profile' } } : {}),
  };
}

export async function startWebHost(config: WebConfig): Promise<RunningServer> {
  const site = createStaticSite({
    root: webRoot(),
    config: { apiBase: config.backendUrl, ...(config.oidc ? { oidc: config.oidc } : {}) },
    connectOrigins: [new URL(config.backendUrl).origin, ...(config.oidc ? [new URL(config.oidc.issuer).origin] : [])],
  });
  return listen(site, { host: config.host, port: config.port });
}
