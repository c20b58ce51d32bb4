export { eventually, type EventuallyOptions } from './eventually';
export { rawWda, type RawReply, type RawWda, type RawWdaOptions } from './raw-wda';
export { spawnNode, type Exit, type SpawnedProcess, type SpawnNodeOptions, type WaitForLineOptions } from './spawned-process';
export { binaryPlist, xmlPlist } from './app-builds';
export { zipFiles, type ZipInput } from '@apex/zip/testing';
