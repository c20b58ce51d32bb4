export { buttonFailure, launchFailure, assertIPhoneButton, type IPhoneButton, typingFailure, type AgentErrorReply } from './agent-errors';
export { agentStatusFields, foregroundAppOf, type AgentStatusReplies } from './agent-status';
export { normalizeXmlSource } from './normalize-xml';
export { SourceMemo } from './source-memo';
export { roleOf } from './roles';
export { elementId, ElementIds } from './element-id';
export {
  nonEmpty,
  readXmlSource,
  unreadableSource,
  type XmlAttributes,
  type XmlNode,
} from './xml-reader';
export { AGENT_ORIENTATIONS, alertFailure, alertInfoOf, keyboardFailure, pasteboardText, rotationFailure, urlFailure } from './agent-controls';
export { appStateOf, localeArguments } from './launch-options';
export { parseAppleTime, parseIps, parseOsLogLine, type IosDiagnosticsSource } from './diagnostics';
