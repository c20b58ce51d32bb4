import { ApexError } from '@apex/errors';
import type { ImageAttachment } from '@apex/capability';
import type { Task, TaskStep } from '../model/task';
import type { StepImageStore } from '../store/step-images';
import type { TaskStore } from '../store/task-store';

/** Under the data directory. */
export const SCREENSHOTS_DIR = 'screenshots';

/**
 * Keeps the screenshot taken after `step` as a file (under the retention limit) and sets the step's reference
 * to it, unless retention removed it at once. Steps whose files the limit evicted lose their reference in the store.
 */
export async function keepStepScreenshot(images: StepImageStore, store: TaskStore, taskId: string, step: TaskStep, jpeg: Buffer): Promise<void> {
  const ref = `step-${String(step.index).padStart(3, '0')}.jpg`;
  const evicted = await images.save(taskId, ref, jpeg);
  step.screenshotRef = ref;
  for (const gone of evicted) {
    if (gone.taskId === taskId && gone.ref === ref) step.screenshotRef = undefined;
    else await store.setStepScreenshot(gone.taskId, stepIndexOf(gone.ref), undefined);
  }
}

/**
 * The kept screenshot of step `step` (1-based: the step whose `index` is step − 1). The file is found by the
 * store's own reference, never by a name from the caller. `task_not_found` when the step or its screenshot is
 * not there (retention removes the oldest).
 */
export async function readStepScreenshot(images: StepImageStore, task: Task, step: number): Promise<ImageAttachment> {
  const found = Number.isInteger(step) && step >= 1 ? task.steps.find((s) => s.index === step - 1) : undefined;
  if (!found) {
    throw new ApexError('task_not_found', `Task ${task.id} has no step ${step}; it has ${task.steps.length}.`, {
      hint: 'Steps are numbered from 1; get_task lists them.',
    });
  }
  const gone = () =>
    new ApexError('task_not_found', `The screenshot of step ${step} of task ${task.id} is no longer kept.`, {
      hint: 'Only the newest step screenshots are kept; the step itself is still in get_task.',
    });
  if (!found.screenshotRef) throw gone();
  const data = await images.read(task.id, found.screenshotRef);
  if (!data) throw gone();
  return { data, mimeType: found.screenshotRef.endsWith('.png') ? 'image/png' : 'image/jpeg' };
}

function stepIndexOf(ref: string): number {
  return Number(/(\d+)/.exec(ref)?.[1] ?? -1);
}
