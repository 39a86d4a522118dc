#!/usr/bin/env node
// Entry of the `codehealth` command; the code is built from src into dist by `tsc -b`.
import { main } from '../dist/main.js';

const code = await main(process.argv.slice(2));
// Exit only after stdout and stderr are flushed (on some pipes a bare exit cuts the report short),
// and exit explicitly so that a stray handle can never leave a CI job hanging.
const flushed = (stream) => new Promise((done) => stream.write('', done));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
