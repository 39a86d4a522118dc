#!/usr/bin/env node
// Entry of the `codehealth` command; the code is built from src into dist by `tsc -b`.
import { tuneV8ForAnalysis } from '@codehealth/engine';
import { main } from '../dist/main.js';

// V8 settings for analysis work (packages/engine/src/runtime/v8-tuning.ts; CODEHEALTH_V8_TUNING=0 keeps V8's defaults).
tuneV8ForAnalysis();

const code = await main(process.argv.slice(2));
// Exit only after stdout and stderr are flushed (on some pipes a bare exit cuts the report short),
// and exit explicitly so that a stray handle can never leave a CI job hanging.
const flushed = (stream) => new Promise((done) => stream.write('', done));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
