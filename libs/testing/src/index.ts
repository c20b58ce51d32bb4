export { eventually, type EventuallyOptions } from './eventually';
export { rawWda, type RawReply, type RawWda, type RawWdaOptions } from './raw-wda';
export { spawnNode, type Exit, type SpawnedProcess, type SpawnNodeOptions, type WaitForLineOptions } from './spawned-process';
export { binaryPlist, xmlPlist, zipFiles, type ZipInput } from './app-builds';
export { createXcrunStandIn, type XcrunCall, type XcrunStandIn } from './xcrun-stand-in';
