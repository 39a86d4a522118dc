// @codehealth/http's public surface and what it may import (issue 19): the REST host, routes over
// the service's application layer. Adding or removing an export, or an import that points the
// wrong way, is a deliberate change to the lists below.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageImports, packageOf, reachesIntoOtherPackages } from '../../../test/helpers/package-imports.js';
import * as http from './index.js';

const src = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const edges = packageImports(src);

describe('@codehealth/http', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(http).sort()).toEqual([
      'ALL_ROUTES',
      'API_PREFIX',
      'ApiError',
      'DEFAULT_RATE_LIMIT',
      'DEFAULT_UNAUTHENTICATED_RATE_LIMIT',
      'MAX_BODY_BYTES',
      'TrustedProxies',
      'TrustedProxiesError',
      'buildOpenApiDocument',
      'clientAddressOf',
      'createApp',
      'createIdpAuthenticator',
      'createRateLimiter',
      'createStaticSite',
      'defineRoute',
      'enforceRateLimit',
      'errorResponse',
      'fullPathOf',
      'isApiPath',
      'jsonResponse',
      'rateLimitFromEnv',
      'toErrorResponse',
      'toRouterPath',
    ]);
  });

  it('imports in production only node builtins and its declared dependencies; of CodeHealth, only the engine (never the worker or the CLI)', () => {
    const bare = edges.filter((edge) => !edge.test && !edge.specifier.startsWith('.'));
    expect(bare.length).toBeGreaterThan(10);
    const undeclared = bare.filter((edge) => !edge.specifier.startsWith('node:') && !(packageOf(edge.specifier) in manifest.dependencies));
    expect(undeclared.map((edge) => `${edge.file} -> ${edge.specifier}`)).toEqual([]);
    const hosts = edges.filter((edge) => /^@codehealth\/(worker|cli|web)(\/|$)/.test(edge.specifier));
    expect(hosts.map((edge) => `${edge.file} -> ${edge.specifier}`)).toEqual([]);
  });

  it('reaches into no other package’s files', () => {
    expect(reachesIntoOtherPackages(edges, 'http')).toEqual([]);
  });
});
