// Known credential formats: providers issue them with a fixed prefix and length, so a match is a
// credential with high certainty wherever it is written (code, comment or string).
import type { Severity } from '@codehealth/engine/kit';
import { isPlaceholder } from './values.js';

export interface SecretFormat {
  id: string;
  /** Name for the title: "Hard-coded <label> in config.ts". */
  label: string;
  pattern: RegExp;
  severity: Severity;
  confidence: number;
  /** Reported in test and example code too: a provider key there may still be live. */
  liveInTests: boolean;
  /** Extra check on the matched text (and its capture groups). */
  accept?(match: RegExpExecArray): boolean;
}

function base64UrlJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** jwt.io's sample token (sub 1234567890, "John Doe") is in countless docs and tests. */
function isRealJwt(match: RegExpExecArray): boolean {
  const [header, payload] = match[0].split('.');
  const head = base64UrlJson(header);
  const body = base64UrlJson(payload);
  if (!head || typeof head.alg !== 'string' || !body) return false;
  return !(body.sub === '1234567890' && body.name === 'John Doe');
}

const LOCAL_HOSTS = /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$/i;

/** A password in a URL, unless it is a placeholder, the user name again, or a local development default. */
function isRealUrlPassword(match: RegExpExecArray): boolean {
  const [, user, password, host] = match;
  if (LOCAL_HOSTS.test(host) || password === user || password.length < 4) return false;
  if (/^[*x•.]+$|^\$|^%|^:|^\{|^</i.test(password)) return false;
  return !isPlaceholder(password) && !/^(?:pass(?:word)?|secret|pwd|root|admin|guest|postgres|mysql|user(?:name)?)$/i.test(password);
}

export const SECRET_FORMATS: readonly SecretFormat[] = [
  { id: 'aws-access-key', label: 'AWS access key', pattern: /\bAKIA[0-9A-Z]{16}\b/g, severity: 'critical', confidence: 95, liveInTests: true },
  { id: 'aws-temporary-key', label: 'AWS temporary access key', pattern: /\bASIA[0-9A-Z]{16}\b/g, severity: 'high', confidence: 85, liveInTests: true },
  { id: 'github-token', label: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, severity: 'critical', confidence: 95, liveInTests: true },
  {
    id: 'github-fine-grained-token',
    label: 'GitHub token',
    pattern: /\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b/g,
    severity: 'critical',
    confidence: 95,
    liveInTests: true,
  },
  {
    id: 'slack-token',
    label: 'Slack token',
    pattern: /\bxox[baprs]-(?:[0-9]{6,}-){1,3}[A-Za-z0-9-]{8,}\b/g,
    severity: 'critical',
    confidence: 90,
    liveInTests: true,
  },
  {
    id: 'slack-webhook',
    label: 'Slack webhook URL',
    pattern: /\bhttps:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/g,
    severity: 'high',
    confidence: 90,
    liveInTests: true,
  },
  {
    id: 'stripe-live-key',
    label: 'Stripe live secret key',
    pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}\b/g,
    severity: 'critical',
    confidence: 95,
    liveInTests: true,
  },
  {
    id: 'google-api-key',
    label: 'Google API key',
    pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    severity: 'critical',
    confidence: 80,
    liveInTests: true,
  },
  { id: 'npm-token', label: 'npm access token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, severity: 'critical', confidence: 90, liveInTests: true },
  {
    id: 'sendgrid-key',
    label: 'SendGrid API key',
    pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g,
    severity: 'critical',
    confidence: 90,
    liveInTests: true,
  },
  {
    id: 'private-key',
    label: 'private key',
    // The body must look like key material, not `...` in documentation.
    pattern: /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?)-----(?:\\[rn]|\s)+[A-Za-z0-9+/=\\\s"'`+,]{64,}?-----END \1-----/g,
    severity: 'critical',
    confidence: 95,
    liveInTests: true,
  },
  {
    id: 'jwt',
    label: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g,
    severity: 'high',
    confidence: 70,
    // Tests sign their own tokens with test keys.
    liveInTests: false,
    accept: isRealJwt,
  },
  {
    id: 'url-password',
    label: 'password in a connection string',
    // Anchored on `://` (the scheme is not needed), which keeps the scan fast.
    pattern: /:\/\/([^\s:@/'"`]{1,64}):([^\s@/'"`]{1,128})@([^\s/:'"`?#]+)/g,
    severity: 'high',
    confidence: 75,
    liveInTests: false,
    accept: isRealUrlPassword,
  },
];

/** Cheap pre-check: none of the formats can match a file without one of these (URLs: `://`). */
export const FORMAT_HINT = /AKIA|ASIA|gh[pousr]_|github_pat_|xox[baprs]-|hooks\.slack\.com|k_live_|AIza|npm_|SG\.|PRIVATE KEY|eyJ/;
