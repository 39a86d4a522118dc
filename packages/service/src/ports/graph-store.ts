// The graph store port is a contract of the engine (contracts/graph-store.ts): the PR analysis'
// graph impact reads through it and the service's adapters implement it. Kept here for the imports
// of the application layer.
export { storedGraphOf, reExportAliases, layerOf, MAX_DEPENDENT_DEPTH } from '@codehealth/engine/internal';
export type {
  StoredSymbol,
  StoredImport,
  StoredCall,
  StoredGraph,
  ImpactEdge,
  ImpactCall,
  ImportPair,
  Dependent,
  LayerEdge,
  GraphStore,
} from '@codehealth/engine/internal';
