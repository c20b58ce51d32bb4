export { installStandIns, type StandIns, type StandInScenario } from './stand-ins';
