export { installStandIns, STAND_IN_TOOLS, type BuildHold, type StandInCall, type StandInOptions, type StandIns, type StandInScenario, type StandInTool } from './stand-ins';
