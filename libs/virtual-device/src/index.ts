export { startVirtualIPhone, virtualIPhoneOptionsSchema, DEFAULT_HOST } from './iphone/virtual-iphone';
export type { VirtualIPhone, VirtualIPhoneOptions } from './iphone/virtual-iphone';
export type { FaultController, FaultState } from './iphone/faults/fault-controller';
export { EMULATOR_FLAGS, EMULATOR_USAGE, emulatorArgsFromFlags, emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal } from './iphone/emulator-runner';
export type { EmulatorArgs, RunOptions } from './iphone/emulator-runner';
export * from './iphone';
export * from './android';
export * from './android/adbd';
