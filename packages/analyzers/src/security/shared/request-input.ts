// Recognises values that come straight from an HTTP request (Express, Koa, h3/Nitro, AWS Lambda,
// Next.js), the usual untrusted input of a server.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { unwrap } from './syntax.js';

const REQUEST_OBJECT = '(?:req|request|ctx|context|event|evt)';
const REQUEST_FIELD =
  '(?:params|query|body|headers|cookies|path|url|originalUrl|pathParameters|queryStringParameters|rawPath|rawQueryString|multiValueQueryStringParameters|param|get|header|searchParams)';
/**
 * Uploads: the client chooses the original file name (multer's `originalname`, express-fileupload's
 * `name`); the stored path and generated names (`req.file.path`, `tempFilePath`) are the server's.
 */
const UPLOAD_NAME = '(?:req|request)\\.files?(?:\\.[\\w$]+|\\[[^\\]]+\\])*?\\.(?:originalname|originalFilename|name)\\b';
/** h3 / Nitro / Nuxt utilities that return request input. */
const REQUEST_HELPER =
  '(?:getRouterParams?|getQuery|getValidatedQuery|getValidatedRouterParams|readBody|readValidatedBody|readFormData|readMultipartFormData|getHeader|getCookie)';

const ACCESS = new RegExp(`^(?:${REQUEST_OBJECT}(?:\\.request)?(?:\\?)?\\.${REQUEST_FIELD}\\b|${UPLOAD_NAME})`);
const HELPER_CALL = new RegExp(`^(?:await\\s+)?${REQUEST_HELPER}\\s*\\(`);
const ANYWHERE = new RegExp(`\\b${REQUEST_OBJECT}(?:\\.request)?\\??\\.${REQUEST_FIELD}\\b|\\b${REQUEST_HELPER}\\s*\\(|\\b${UPLOAD_NAME}`);

/** True when the expression itself reads request input (`req.query.file`, `getRouterParam(event, 'id')`). */
export function isRequestInput(node: SyntaxNode): boolean {
  const text = unwrap(node).text;
  return ACCESS.test(text) || HELPER_CALL.test(text);
}

/** True when request input appears anywhere in the expression (`path.join(dir, req.params.name)`). */
export function mentionsRequestInput(node: SyntaxNode): boolean {
  return ANYWHERE.test(node.text);
}

/** Cheap pre-check on a whole file: no request object, no request input. */
export function sourceMayReadRequests(source: string): boolean {
  return ANYWHERE.test(source);
}
