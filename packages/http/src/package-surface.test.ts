// @codehealth/http's public surface and what it may import (issue 19): the REST host, routes over
// the service's application layer. Adding or removing an export, or an import that points the
// wrong way, is a deliberate change to the snapshot and the lists below (an export's kind too).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageImports, packageOf, reachesIntoOtherPackages } from '../../../test/helpers/package-imports.js';
import { exportSurface } from '../../../test/helpers/export-surface.js';
import * as http from './index.js';

const src = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const edges = packageImports(src);

describe('@codehealth/http', () => {
  it('exports exactly these runtime names, each of its kind (a snapshot: vitest -u rewrites it)', () => {
    expect(exportSurface(http)).toMatchInlineSnapshot(`
      "ALL_ROUTES: object
      API_PREFIX: string
      ApiError: class
      DEFAULT_RATE_LIMIT: object
      DEFAULT_UNAUTHENTICATED_RATE_LIMIT: object
      MAX_BODY_BYTES: number
      TrustedProxies: class
      TrustedProxiesError: class
      buildOpenApiDocument: function
      clientAddressOf: function
      createApp: function
      createIdpAuthenticator: function
      createRateLimiter: function
      createStaticSite: function
      defineRoute: function
      enforceRateLimit: function
      errorResponse: function
      fullPathOf: function
      isApiPath: function
      jsonResponse: function
      rateLimitFromEnv: function
      toErrorResponse: function
      toRouterPath: function"
    `);
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
