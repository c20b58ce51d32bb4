import { readFile } from 'node:fs/promises';
import type { ScreenshotStore, StoredScreenshot } from './screenshot-store';

/**
 * Where step screenshots are kept, under a retention limit: files in the data directory (one machine), or the
 * PostgreSQL database (every node can serve every task's screenshots).
 */
export interface StepImageStore {
  /** Keeps the image as `ref` of the task; returns the images the retention limit evicted (this one too, maybe). */
  save(taskId: string, ref: string, bytes: Buffer): Promise<StoredScreenshot[]>;
  /** The image, or undefined when it is not kept (any more). */
  read(taskId: string, ref: string): Promise<Buffer | undefined>;
  /** Removes every image of a task (its retention ended). */
  removeTask(taskId: string): Promise<void>;
}

/** The screenshot files of the data directory as a step image store. */
export function fileStepImages(files: ScreenshotStore): StepImageStore {
  return {
    save: async (taskId, ref, bytes) => files.save(taskId, ref, bytes),
    read: async (taskId, ref) => {
      try {
        return await readFile(files.pathOf(taskId, ref));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    removeTask: async (taskId) => files.removeTask(taskId),
  };
}
