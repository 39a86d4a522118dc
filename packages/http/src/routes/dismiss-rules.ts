// Dismiss rules (spec section 4, "Issues and dismiss rules"): list, create, delete.
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'Dismiss rules';

const MATCHING_DOC =
  'An issue matches a rule when all of these hold: `rule_pattern` matches its rule id or its title; `secondary_pattern`, when ' +
  'set, matches its title, its code snippet or `fingerprint:<fingerprint>`; `source_type`, when set, equals its source; with ' +
  'scope `file`, `file_path` matches its file path. Patterns are globs (picomatch, bash flavour): `*` any characters — in ' +
  '`rule_pattern` and `secondary_pattern` also across `/`, so `security/*` covers every security rule —, `?` one character, ' +
  '`[abc]` classes, `{a,b}` alternatives, `\\` escapes the next character; `(`, `)` and `|` are literal (titles such as ' +
  '`eval() compiles ...` hold them). A leading `!` negates the whole test: `!security/*` matches issues whose rule id and title ' +
  'both fail `security/*`. Patterns are case-insensitive, and a pattern also matches a value equal to it. `file_path` is a path glob relative to the repository root and case-sensitive: `*` stays within one directory, ' +
  '`**` crosses directories (`src/**/*.test.ts`), and a plain path matches that file even when it holds glob characters ' +
  '(`app/[id]/page.tsx`). Scopes `global` and `project` both reach every issue of this project (a rule never reaches another ' +
  'project); `file` narrows the rule to `file_path`. A dismissed issue is hidden by the oldest rule that matches it, unless the ' +
  'issue was restored after that rule was created.';

export const dismissRuleRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/analysis/dismiss-rules',
    operationId: 'listDismissRules',
    summary: "The project's dismiss rules, newest first (not paginated)",
    description: 'Includes the rules created by dismissing single issues (scope `file`, `secondary_pattern` `fingerprint:<fingerprint>`).',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: z.array(api.DismissRuleSchema),
    handler: ({ services, actor, params }) => services.dismissRules.list(actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/analysis/dismiss-rules',
    operationId: 'createDismissRule',
    summary: 'Create a dismiss rule; it applies at once to existing issues and to every later analysis',
    description:
      `${MATCHING_DOC} \`file_path\` is required with scope \`file\` and refused with the other scopes; a pattern that is not a ` +
      'valid glob, longer than 1000 characters or holding a backreference (`{a,b}\\1`), is a 400. Patterns are matched in time ' +
      'proportional to pattern length × value length, whatever their wildcards. `match_count` counts the issues the rule matches in analysis runs ' +
      'recorded after its creation: it is 0 in this response even though existing issues are dismissed at once.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.CreateDismissRuleBody,
    status: 201,
    response: api.DismissRuleSchema,
    handler: ({ services, actor, params, body }) => services.dismissRules.create(actor, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{id}/analysis/dismiss-rules/{ruleId}',
    operationId: 'deleteDismissRule',
    summary: 'Delete a dismiss rule; the issues it suppressed become active again',
    description: 'An issue the deleted rule hid stays dismissed only when another rule still matches it.',
    tag: TAG,
    access: 'member',
    params: projectParamsWith('ruleId'),
    status: 204,
    errors: [404],
    handler: ({ services, actor, params }) => services.dismissRules.delete(actor, params.id, params.ruleId),
  }),
];
