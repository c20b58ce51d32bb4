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
export { translateWebDriverFailure, withRouteMeaning, type FailureWording } from './translate';
export { pinchActions, strokeSteps, swipeActions, tapActions, touchActions, type FingerStep, type XY } from './actions';
export { WebDriverSession, type SessionCapabilities, type SessionRequest, type WebDriverSessionOptions } from './session';
export { WebDriverBackedDriver, type WebDriverBackedOptions } from './driver-base';
export { readScreenStream, type ScreenStreamSource } from './mjpeg/screen-stream';
export { MAX_FRAME_BYTES, MjpegFormatError, MultipartFrameReader } from './mjpeg/multipart-frames';
