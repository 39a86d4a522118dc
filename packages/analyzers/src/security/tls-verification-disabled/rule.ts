// Flags switched-off TLS certificate verification: rejectUnauthorized/strictSSL false, insecure
// agents, no-op checkServerIdentity, and NODE_TLS_REJECT_UNAUTHORIZED=0 for the whole process.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { placeOf, quote } from '../shared/place.js';
import { assignedName, calleeOf, isLiteralBoolean, literalString, propertyKey, unwrap } from '../shared/syntax.js';

const options = z.object({}).strict().default({});

const ENV_FLAG = 'NODE_TLS_REJECT_UNAUTHORIZED';

function isZero(node: SyntaxNode): boolean {
  const n = unwrap(node);
  return literalString(n) === '0' || (n.type === 'number' && Number(n.text) === 0);
}

/** `() => {}`, `() => undefined`, `function () { return undefined; }`: accepts every certificate. */
function isNoOpFunction(node: SyntaxNode): boolean {
  const n = unwrap(node);
  if (n.type !== 'arrow_function' && n.type !== 'function_expression') return false;
  const body = n.childForFieldName('body');
  if (!body) return false;
  const text = body.text.replace(/\s+/g, '');
  return /^(?:\{\}|undefined|null|void0|\{returnundefined;?\}|\{returnnull;?\}|\{return;?\})$/.test(text);
}

/** An object literal given to an HTTPS/TLS agent, request or connection. */
function isTlsOptions(object: SyntaxNode): boolean {
  const call = object.parent?.type === 'arguments' ? object.parent.parent : undefined;
  if (!call) return false;
  const callee = calleeOf(call);
  const text = `${callee?.object?.text ?? ''}.${callee?.name ?? ''}`;
  return /Agent$|https|tls/i.test(text);
}

interface Problem {
  what: string;
  severity: Severity;
  confidence: number;
}

function pairProblem(pair: SyntaxNode): Problem | undefined {
  const key = propertyKey(pair.childForFieldName('key'));
  const value = pair.childForFieldName('value');
  if (!key || !value) return undefined;
  switch (key) {
    case 'rejectUnauthorized':
      return isLiteralBoolean(value, false) ? { what: '`rejectUnauthorized: false`', severity: 'high', confidence: 90 } : undefined;
    case 'strictSSL':
      return isLiteralBoolean(value, false) ? { what: '`strictSSL: false`', severity: 'high', confidence: 90 } : undefined;
    case 'insecure':
      return isLiteralBoolean(value, true) && pair.parent && isTlsOptions(pair.parent)
        ? { what: '`insecure: true` on an HTTPS agent', severity: 'high', confidence: 80 }
        : undefined;
    case 'checkServerIdentity':
      return isNoOpFunction(value) ? { what: 'a `checkServerIdentity` that accepts every certificate', severity: 'high', confidence: 85 } : undefined;
    case ENV_FLAG:
      return isZero(value) ? { what: `\`${ENV_FLAG}=0\` in an environment`, severity: 'high', confidence: 85 } : undefined;
    default:
      return undefined;
  }
}

function assignmentProblem(assignment: SyntaxNode): Problem | undefined {
  const left = assignment.childForFieldName('left');
  const right = assignment.childForFieldName('right');
  if (!left || !right) return undefined;
  const name = assignedName(left);
  if (name === ENV_FLAG && /^process\.env\b/.test(left.text) && isZero(right)) {
    return {
      what: `\`process.env.${ENV_FLAG} = '0'\`, which turns verification off for every connection of the process`,
      severity: 'critical',
      confidence: 95,
    };
  }
  if ((name === 'rejectUnauthorized' || name === 'strictSSL') && isLiteralBoolean(right, false)) {
    const global = /globalAgent/.test(left.text);
    return {
      what: `\`${name} = false\`${global ? ' on the global agent, for every HTTPS request of the process' : ''}`,
      severity: global ? 'critical' : 'high',
      confidence: 90,
    };
  }
  return undefined;
}

export const tlsVerificationDisabled = defineRule({
  kind: 'file',
  meta: {
    id: 'tls-verification-disabled',
    description: 'TLS certificate verification switched off (rejectUnauthorized: false, NODE_TLS_REJECT_UNAUTHORIZED=0, …)',
    category: 'security',
    severity: 'high',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'Without certificate verification, TLS still encrypts but no longer proves who is on the other end: anyone ' +
        'on the network path (a Wi-Fi hotspot, a compromised router, a proxy) can impersonate the server and read or ' +
        'change every request, credentials included.',
      suggestedAction:
        'Remove the override. For a self-signed or private CA, pass the CA certificate (`ca: fs.readFileSync(…)`) or ' +
        'set NODE_EXTRA_CA_CERTS, so verification stays on for everything else.',
    },
  },
  create(context) {
    if (!/rejectUnauthorized|NODE_TLS_REJECT_UNAUTHORIZED|strictSSL|insecure|checkServerIdentity/.test(context.source)) return {};
    // A client that only talks to its own machine (a container healthcheck whose host defaults to
    // 127.0.0.1 and whose strings name no remote https:// address; comments may link anywhere): nobody sits between it and its server.
    const loopbackOnly =
      /['"`](?:127\.0\.0\.1|localhost|::1)['"`]/.test(context.source) && !/['"`]https:\/\/(?!(?:127\.0\.0\.1|localhost|\[::1\])[:/'"`])/.test(context.source);
    if (loopbackOnly) return {};
    const report = (node: SyntaxNode, problem: Problem) => {
      const place = placeOf(node, context.file.path);
      context.report({
        node,
        title: `TLS certificate verification disabled in ${place.label}`,
        description: `${quote(node, 80)} sets ${problem.what}: the peer's certificate is not checked, so a man-in-the-middle can read and alter the traffic.`,
        severity: problem.severity,
        confidence: problem.confidence,
        symbol: place.symbol,
      });
    };
    return {
      pair(node) {
        const problem = pairProblem(node);
        if (problem) report(node, problem);
      },
      assignment_expression(node) {
        const problem = assignmentProblem(node);
        if (problem) report(node, problem);
      },
    };
  },
});
