// The common shape every coverage report format is parsed into: line counts per file and in total.

export type CoverageFormat = 'lcov' | 'istanbul-final' | 'cobertura' | 'istanbul-summary';

export interface FileLineCoverage {
  /** The path as the report writes it: absolute, or relative to the directory the tests ran in. */
  path: string;
  /** Executable lines the tool instrumented. */
  found: number;
  hit: number;
  /** 1-based lines instrumented but never run, when the format lists lines. */
  uncovered?: number[];
}

export interface ParsedCoverage {
  format: CoverageFormat;
  files: FileLineCoverage[];
  /** The report's own total when it states one; else the sum over files. */
  total: { found: number; hit: number };
  /** Directories relative paths are resolved against, when the report names them (Cobertura `<source>`). */
  sources?: string[];
  /** 0-1 line rate, for a report that gives only a rate and no line counts. */
  rate?: number;
}

export function sumFiles(files: readonly FileLineCoverage[]): { found: number; hit: number } {
  let found = 0;
  let hit = 0;
  for (const file of files) {
    found += file.found;
    hit += file.hit;
  }
  return { found, hit };
}
