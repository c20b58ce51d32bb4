import { postJson } from './api';

/** A file name for a flow: its name in lower-case words joined by dashes, `.yaml` at the end. */
export function flowFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'flow'}.yaml`;
}

/** Offers text as a download (a blob URL: no server round trip, nothing in the page's history). */
export function saveText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the next turn; the URL is no longer needed.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Replays a flow file on a device as a task (POST /flows/run); resolves to the new task's id. */
export async function runFlow(yaml: string, device: string | undefined): Promise<string> {
  const started = await postJson<{ taskId: string }>('/flows/run', { yaml, ...(device ? { device } : {}) });
  return started.taskId;
}
