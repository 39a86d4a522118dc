import { AnalyzerTester } from '@codehealth/engine/testing';
import { compliance } from '../index.js';

const moment = { banned: [{ name: 'moment', message: 'Use date-fns: moment is in maintenance mode.' }] };
const get = { banned: [{ call: 'lodash.get', message: 'Use optional chaining.' }] };
const exec = { banned: [{ call: 'child_process.exec', severity: 'high' }, { call: 'eval' }, { call: 'Buffer' }] };

new AnalyzerTester(compliance).run('banned-api', {
  valid: [
    { code: "import moment from 'moment';\nmoment();\n", name: 'inactive without configuration' },
    { code: "import dayjs from 'dayjs';\nimport m from 'momentous';\n", options: moment, name: 'other modules, and names that only start alike' },
    { code: "import { get } from 'axios';\nget('/x');\nconst _ = { get: (o: object) => o };\n_.get({});\n", options: get, name: 'a get() that is not lodash' },
    {
      code: "import { exec } from './child_process.js';\nexec('ls');\nobj.eval('x');\n",
      options: exec,
      name: 'local modules and members named like banned globals',
    },
  ],
  invalid: [
    {
      code: "import moment from 'moment';\nimport 'moment/locale/de';\nexport { default as m } from 'moment';\nconst lazy = () => import('moment');\nconst m2 = require('moment');\n",
      options: moment,
      name: 'every way of loading a banned module, subpaths included',
      findings: [
        { line: 1, title: 'Banned module moment imported in example.ts', severity: 'medium' },
        { line: 2, title: 'Banned module moment/locale/de imported in example.ts' },
        { line: 3, title: 'Banned module moment imported in example.ts' },
        { line: 4, title: 'Banned module moment imported in example.ts', symbol: 'lazy' },
        { line: 5, title: 'Banned module moment imported in example.ts' },
      ],
    },
    {
      code: "import _ from 'lodash';\nimport * as lo from 'lodash';\nimport { get as pick } from 'lodash';\nconst { get } = require('lodash');\nexport function read(o: object) {\n  return [_.get(o, 'a'), lo.get(o, 'b'), pick(o, 'c'), get(o, 'd')];\n}\n",
      options: get,
      name: 'lodash.get through default, namespace, aliased and destructured bindings',
      findings: [
        { line: 6, title: 'Banned call lodash.get() (_.get) in example.ts', symbol: 'read' },
        { line: 6, title: 'Banned call lodash.get() (lo.get) in example.ts', symbol: 'read' },
        { line: 6, title: 'Banned call lodash.get() (pick) in example.ts', symbol: 'read' },
        { line: 6, title: 'Banned call lodash.get() (get) in example.ts', symbol: 'read' },
      ],
    },
    {
      code: "import cp from 'node:child_process';\nimport { exec as run } from 'child_process';\ncp.exec('ls');\nrun('rm');\neval('1');\nconst b = new Buffer(10);\n",
      options: exec,
      name: 'node: prefixes, globals, constructors and per-entry severity',
      findings: [
        { line: 3, title: 'Banned call child_process.exec() (cp.exec) in example.ts', severity: 'high' },
        { line: 4, title: 'Banned call child_process.exec() (run) in example.ts', severity: 'high' },
        { line: 5, title: 'Banned call eval() in example.ts', severity: 'medium' },
        { line: 6, title: 'Banned call Buffer() in example.ts' },
      ],
    },
    {
      code: "useIt();\nimport moment from 'moment';\nfunction useIt() {\n  return moment.utc();\n}\n",
      options: { banned: [{ call: 'moment.utc', message: 'Use Temporal.' }] },
      name: 'a call before the import that binds its name',
      findings: [{ line: 4, title: 'Banned call moment.utc() in example.ts', symbol: 'useIt' }],
    },
  ],
});
