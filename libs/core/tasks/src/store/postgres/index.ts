export { PostgresDatabase, databaseError, TASKS_CHANNEL, type PostgresDatabaseOptions } from './postgres-database';
export { PostgresTaskStore, type PostgresTaskStoreOptions } from './postgres-task-store';
export { PostgresStepImages } from './postgres-step-images';
export { PostgresDeviceLeases, type ClusterDevice, type DeviceClaim } from './postgres-device-leases';
export { MIGRATIONS } from './migrations';
export { PostgresRecordings, RECORDING_CHUNK_BYTES, type SharedRecordingMeta } from './postgres-recordings';
