/**
 * The versioned schema of the shared task database. Applied in order, each once, on open; a version, once
 * released, is never edited: a change is a new version. Times a lease compares are ms since the epoch from
 * the nodes' clocks (keep them in sync, e.g. NTP); task times are ISO strings as in the SQLite store.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'tasks, steps, step images, nodes and device leases',
    sql: `
CREATE TABLE apex_nodes (
  instance_id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE TABLE apex_tasks (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  device_id TEXT NOT NULL,
  goal TEXT NOT NULL,
  status TEXT NOT NULL,
  planner TEXT NOT NULL,
  max_steps INTEGER NOT NULL,
  timeout_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  result TEXT,
  error_json TEXT,
  usage_json TEXT,
  patch_json TEXT,
  owner TEXT NOT NULL DEFAULT '',
  cancel_requested BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX apex_tasks_status ON apex_tasks (status, seq);
CREATE INDEX apex_tasks_device ON apex_tasks (device_id, seq);
CREATE TABLE apex_steps (
  task_id TEXT NOT NULL REFERENCES apex_tasks (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  observation TEXT NOT NULL,
  operation TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  outcome_json TEXT NOT NULL,
  duration_ms DOUBLE PRECISION NOT NULL,
  screenshot_ref TEXT,
  target_json TEXT,
  PRIMARY KEY (task_id, idx)
);
CREATE TABLE apex_step_images (
  seq BIGSERIAL,
  task_id TEXT NOT NULL REFERENCES apex_tasks (id) ON DELETE CASCADE,
  ref TEXT NOT NULL,
  bytes BYTEA NOT NULL,
  PRIMARY KEY (task_id, ref)
);
CREATE INDEX apex_step_images_seq ON apex_step_images (seq);
CREATE TABLE apex_device_leases (
  device_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  platform TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'the answer a task found (a question goal)',
    sql: 'ALTER TABLE apex_tasks ADD COLUMN answer_json TEXT;',
  },
  {
    version: 3,
    name: 'the screen recording a task asked for (record: true)',
    sql: 'ALTER TABLE apex_tasks ADD COLUMN recording_json TEXT;',
  },
  {
    version: 4,
    name: 'the address of each node, for the operations other nodes forward to it (cluster.listAll)',
    sql: 'ALTER TABLE apex_nodes ADD COLUMN url TEXT;',
  },
  {
    version: 5,
    name: 'finished screen recordings, for every node to serve; whether a task asked to be recorded',
    sql: `
CREATE TABLE apex_recordings (
  seq BIGSERIAL,
  id TEXT PRIMARY KEY,
  meta_json TEXT NOT NULL,
  bytes BIGINT NOT NULL
);
CREATE TABLE apex_recording_chunks (
  recording_id TEXT NOT NULL REFERENCES apex_recordings (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (recording_id, idx)
);
ALTER TABLE apex_tasks ADD COLUMN record BOOLEAN NOT NULL DEFAULT false;
`,
  },
  {
    version: 6,
    name: "the state each holder last reported of its phones (its hub's), with its lease renewals (cluster.listAll)",
    sql: 'ALTER TABLE apex_device_leases ADD COLUMN state TEXT, ADD COLUMN state_at BIGINT;',
  },
];
