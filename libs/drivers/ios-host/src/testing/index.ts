export { installStandIns, type StandInCall, type StandIns, type StandInScenario } from './stand-ins';
