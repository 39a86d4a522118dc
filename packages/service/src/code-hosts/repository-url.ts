// Where a repository may come from: the one place that turns what a caller typed (a URL, or an
// owner and a name) into a location the service may fetch. Everything else is refused here, so
// that no caller can make the service reach an arbitrary host (SSRF) or read local files: only
// `https://github.com/<owner>/<name>`, and `file://` repositories when local ones are allowed.
import { isAbsolute, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PublicRepositoryRef } from '../ports/code-host.js';
import { InvalidInputError } from '../services/errors.js';

export type RepositoryLocation = { provider: 'github'; owner: string; name: string } | { provider: 'local'; path: string; url: string };

// GitHub's rules: logins are letters, digits and single inner hyphens, at most 39 characters;
// repository names are letters, digits, `.`, `_`, `-`, at most 100, and never `.` or `..`.
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const GITHUB_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const MAX_URL_LENGTH = 2048;

export function checkGitHubOwner(owner: string): string {
  if (!GITHUB_OWNER.test(owner)) {
    throw new InvalidInputError(`invalid GitHub owner '${clip(owner)}': letters, digits and single hyphens, at most 39 characters`);
  }
  return owner;
}

export function checkGitHubName(name: string): string {
  const bare = name.endsWith('.git') && name.length > 4 ? name.slice(0, -4) : name;
  if (!GITHUB_NAME.test(bare) || bare === '.' || bare === '..') {
    throw new InvalidInputError(`invalid GitHub repository name '${clip(name)}': letters, digits, '.', '_' and '-', at most 100 characters`);
  }
  return bare;
}

const clip = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}…` : text);

/** Parses a GitHub web URL: `https://github.com/<owner>/<name>` with an optional `.git` (or `/`). */
export function parseGitHubUrl(raw: string): { owner: string; name: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError(`'${clip(raw)}' is not a URL: use https://github.com/<owner>/<name>`);
  }
  if (url.protocol !== 'https:') throw new InvalidInputError(`unsupported repository URL scheme '${url.protocol}': use https://github.com/<owner>/<name>`);
  if (url.username || url.password) throw new InvalidInputError('repository URLs must not contain credentials');
  if (url.port) throw new InvalidInputError('repository URLs must not name a port: use https://github.com/<owner>/<name>');
  if (url.hostname !== 'github.com') {
    throw new InvalidInputError(`unsupported code host '${clip(url.hostname)}': only https://github.com/<owner>/<name> repositories can be added`);
  }
  if (url.search || url.hash) throw new InvalidInputError('repository URLs must not have a query or a fragment: use https://github.com/<owner>/<name>');
  const segments = url.pathname.replace(/\/$/, '').split('/').slice(1);
  if (segments.length !== 2) throw new InvalidInputError(`'${clip(raw)}' is not a repository URL: use https://github.com/<owner>/<name>`);
  return { owner: checkGitHubOwner(segments[0]!), name: checkGitHubName(segments[1]!) };
}

/** Parses a `file://` URL of a local repository into a normalised absolute path. */
export function parseLocalUrl(raw: string): { path: string; url: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError(`'${clip(raw)}' is not a URL`);
  }
  if (url.protocol !== 'file:') throw new InvalidInputError('a local repository URL must start with file://');
  if (url.hostname !== '' && url.hostname !== 'localhost') throw new InvalidInputError('file:// URLs must not name a host: use file:///absolute/path');
  if (url.search || url.hash) throw new InvalidInputError('file:// URLs must not have a query or a fragment');
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    throw new InvalidInputError(`'${clip(raw)}' is not a usable file:// URL: use file:///absolute/path`);
  }
  if (!isAbsolute(path)) throw new InvalidInputError('a local repository must be given by an absolute path');
  const normalised = normalize(path).replace(/(.)\/+$/, '$1');
  return { path: normalised, url: pathToFileURL(normalised).href };
}

/**
 * The location a reference denotes, or InvalidInputError naming what is wrong. `file://` is
 * accepted only with `allowLocal` (embedded mode or CODEHEALTH_ALLOW_LOCAL_REPOS=1).
 */
export function parseRepositoryRef(ref: PublicRepositoryRef, options: { allowLocal: boolean }): RepositoryLocation {
  if ('owner' in ref) return { provider: 'github', owner: checkGitHubOwner(ref.owner), name: checkGitHubName(ref.name) };
  const raw = ref.url;
  if (raw.length > MAX_URL_LENGTH) throw new InvalidInputError(`repository URL is longer than ${MAX_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) throw new InvalidInputError('repository URL must not contain spaces or control characters');
  if (/^file:/i.test(raw)) {
    if (!options.allowLocal) {
      throw new InvalidInputError('local (file://) repositories are accepted only in embedded mode (or with CODEHEALTH_ALLOW_LOCAL_REPOS=1)');
    }
    return { provider: 'local', ...parseLocalUrl(raw) };
  }
  return { provider: 'github', ...parseGitHubUrl(raw) };
}
