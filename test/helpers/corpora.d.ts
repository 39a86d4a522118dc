export type Corpus = { root: string; error?: undefined } | { root?: undefined; error: string };
export function obtainNpmPackage(name: string, version: string, marker?: string): Corpus;
export function obtainRxjs(): Corpus;
export function obtainEffect(): Corpus;
export function obtainLargeCorpus(): Corpus;
