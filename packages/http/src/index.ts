// @codehealth/http — the REST host: h3 app over the engine's application services.
export { createApp } from './app.js';
export type { AppOptions } from './app.js';
export { ALL_ROUTES } from './routes/index.js';
export { defineRoute, toRouterPath, fullPathOf, API_PREFIX } from './route.js';
export type { RouteDefinition, RouteContext, AppContext, HealthComponent, HttpMethod } from './route.js';
export { buildOpenApiDocument } from './openapi.js';
export type { OpenApiOptions } from './openapi.js';
export { ApiError, toErrorResponse, jsonResponse, errorResponse } from './http-errors.js';
export type { BearerAuthenticator } from './auth.js';
export { MAX_BODY_BYTES } from './request.js';
export { createIdpAuthenticator } from './idp.js';
export type { IdpOptions } from './idp.js';
export { DEFAULT_RATE_LIMIT, DEFAULT_UNAUTHENTICATED_RATE_LIMIT, createRateLimiter, enforceRateLimit, rateLimitFromEnv } from './rate-limit.js';
export type { RateLimit, RateLimiter, RateLimiterOptions } from './rate-limit.js';
export { clientAddressOf, TrustedProxies, TrustedProxiesError } from './client-address.js';
export { createStaticSite, isApiPath } from './static-site.js';
export type { StaticSite, StaticSiteOptions } from './static-site.js';
