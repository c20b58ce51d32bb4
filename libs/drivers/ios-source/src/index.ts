export { buttonFailure, launchFailure, typingFailure, type AgentErrorReply } from './agent-errors';
export { agentStatusFields, type AgentStatusReplies } from './agent-status';
export { normalizeXmlSource } from './normalize-xml';
export { roleOf } from './roles';
