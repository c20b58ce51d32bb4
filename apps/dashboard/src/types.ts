/** The shapes of the REST answers the page reads (the server's OpenAPI document is their source). */

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DeviceSummary {
  id: string;
  platform: string;
  state: 'online' | 'offline' | 'busy' | 'preparing';
  name: string;
  owner?: { pid: number; host: string; since: string };
  /** Why it is not ready (being prepared, waiting for authorization), in a person's words. */
  note?: string;
}

export interface DeviceStatus extends DeviceSummary {
  model?: string;
  osVersion?: string;
  deviceName?: string;
  screen?: { width: number; height: number; scale: number };
  orientation?: 'portrait' | 'landscape';
  foregroundApp?: { appId: string; name?: string };
  locked?: boolean;
}

export interface UiNode {
  id: string;
  role: string;
  label?: string;
  value?: string;
  placeholder?: string;
  bounds: Rect;
  center?: Point;
  ref?: string;
  children?: UiNode[];
  /** The page's own identity for the node across re-reads (tree-keys.ts); not from the server. */
  key?: string;
}

export interface FindMatch {
  text?: string;
  label?: string;
  bounds: Rect;
  center: Point;
  confidence: number;
  source: string;
  ref?: string;
}

export interface TaskStep {
  index: number;
  observation?: string;
  action?: { operation: string; arguments?: Record<string, unknown> };
  outcome?: { status: string; detail?: string };
  durationMs?: number;
  screenshotRef?: string;
}

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Task {
  id: string;
  device: string;
  goal: string;
  status: TaskStatus;
  planner: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  result?: string;
  error?: {
    code?: string;
    message?: string;
    /** The device log of the last 30 s before it failed. */
    logs?: { time: string; level: string; process: string; message: string }[];
    recording?: { id: string; url: string };
  };
  /** The screen recording of the run (record: true). */
  recording?: { id: string; url: string; seconds: number };
  maxSteps?: number;
  steps?: TaskStep[];
  stepCount?: number;
}

export const FINISHED: readonly TaskStatus[] = ['succeeded', 'failed', 'cancelled'];
