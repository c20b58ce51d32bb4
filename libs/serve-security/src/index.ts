export { hostnameOfHostHeader, isLoopbackHost } from './loopback';
export { assertSafeBind, assertSafeOpenBind } from './bind';
export { isAllowedHost, isAllowedOrigin, isTrustedOrigin, refusalOf, type Refusal, type RequestPolicy } from './request-guard';
export { applyCors, type CorsPolicy } from './cors';
export { applyServerTimeouts, MAX_REQUEST_BODY_BYTES, SERVER_TIMEOUTS, type ServerTimeouts } from './timeouts';
export { checkBearerToken } from './bearer';
export { readBoundedBody, type BodyRead } from './body';
