export {
  classifyNodeError,
  isInvalidSession,
  WebDriverMalformedReply,
  WebDriverProtocolError,
  WebDriverTransportError,
  type TransportFailure,
} from './errors';
export {
  parseEnvelope,
  WebDriverHttpClient,
  type HttpMethod,
  type WebDriverHttpClientOptions,
  type WebDriverReply,
  type WebDriverRequest,
} from './client';
export { translateWebDriverFailure, type FailureWording } from './translate';
