// The infrastructure `/healthz` waits for and `/health/detailed` reports, one entry per configured
// service. Later adapters (cache, graph store, workflow engine, LLM slots) add a factory here.
import type { Cache, Database, GraphStore } from '@codehealth/service';
import type { HealthComponent } from '@codehealth/http';
import type { HostConfig } from './config.js';

export interface HealthSources {
  config: HostConfig;
  db: Database;
  cache?: Cache;
  graphStore?: GraphStore;
}

/** Each factory returns its component, or undefined when that service is not configured. */
type ComponentFactory = (sources: HealthSources) => HealthComponent | undefined;

const FACTORIES: readonly ComponentFactory[] = [
  ({ db }) => ({ name: 'database', check: async () => void (await db.query('SELECT 1')) }),
  // The in-process cache of the embedded mode cannot be down: only Redis is reported.
  ({ config, cache }) => (config.mode === 'self-hosted' && cache ? { name: 'cache', check: () => cache.check() } : undefined),
  ({ graphStore }) => (graphStore ? { name: 'graph_store', check: () => graphStore.check() } : undefined),
];

export function healthComponents(sources: HealthSources, extra: readonly ComponentFactory[] = []): HealthComponent[] {
  return [...FACTORIES, ...extra].map((factory) => factory(sources)).filter((component): component is HealthComponent => component !== undefined);
}
