export { runTool, startTool, eachLine, killGroup, ToolMissing, MAX_TOOL_OUTPUT_CHARS, type RunTool, type RunToolOptions, type ToolResult } from './run-tool';
export { listBootedSimulators, parseBootedSimulators, iosVersionOfRuntime, type BootedSimulator } from './simulators';
export { listUsbIPhones, parseDeviceIds, parseUsbIPhones, portForwardCommand, type UsbIPhone, type UsbIPhoneListing, type UsbTools } from './usb-iphones';
export {
  findXcode,
  launchAgent,
  AGENT_PHASE_WORDS,
  AgentSetupError,
  xcodeVersionOf,
  type AgentLaunchOptions,
  type AgentPhase,
  type AgentProblem,
  type AgentTarget,
  type RunningAgent,
} from './agent-launcher';
export { simulatorDiagnostics, type SimulatorDiagnosticsOptions } from './simulator-diagnostics';
