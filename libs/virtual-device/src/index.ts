export { startVirtualIPhone, virtualIPhoneOptionsSchema, DEFAULT_HOST } from './virtual-iphone';
export type { VirtualIPhone, VirtualIPhoneOptions } from './virtual-iphone';
export type { FaultController, FaultState } from './faults/fault-controller';
export { EMULATOR_FLAGS, EMULATOR_USAGE, emulatorArgsFromFlags, emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal } from './emulator-runner';
export type { EmulatorArgs, RunOptions } from './emulator-runner';
export * from './phone';
export * from './android/adbd';
