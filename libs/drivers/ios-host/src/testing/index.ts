export { installStandIns, type BuildHold, type StandInCall, type StandIns, type StandInScenario } from './stand-ins';
