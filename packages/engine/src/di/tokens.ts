// Injection tokens of the engine's services. Strings (not symbols) so that two copies of the engine
// module in one process (source and built) still agree on them.
export const TOKENS = {
  ScoringModel: 'codehealth:ScoringModel',
  DriftDetector: 'codehealth:DriftDetector',
  FileCache: 'codehealth:FileCache',
  RunStates: 'codehealth:RunStates',
  Analyzers: 'codehealth:Analyzers',
  PluginUrls: 'codehealth:PluginUrls',
  EngineOptions: 'codehealth:EngineOptions',
  WarmWorkers: 'codehealth:WarmWorkers',
  AssessmentPipeline: 'codehealth:AssessmentPipeline',
  ScoringOptions: 'codehealth:ScoringOptions',
} as const;
