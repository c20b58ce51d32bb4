export { WdaDriver, createWdaDriver, type WdaDriverOptions } from './wda-driver';
export { normalizeXmlSource, type IosDiagnosticsSource } from '@apex/ios-source';
export type { SimulatorControl } from './simulator/simulator-control';
export { createSimctlControl, SimctlControl, type SimctlOptions } from './simulator/simctl';
