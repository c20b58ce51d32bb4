import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { DEFAULT_DEVICE_WAIT_MS, MAX_DEVICE_WAIT_MS } from '../limits';
import { deviceField } from '../schemas';
import { deviceSummary } from './list-devices';

/**
 * Every call on a device being prepared waits for it on its own (over MCP, with progress); this one only waits,
 * with the caller's bound: for an agent that saw `preparing` in list_devices and has nothing to do on the phone
 * yet, and for REST clients, whose other calls answer 503 with the phase at once rather than hang.
 */
export const waitForDeviceOperation = defineOperation({
  name: 'wait_for_device',
  title: 'Wait for device',
  description:
    'Waits until a device in state `preparing` (first use: minutes) is ready, reporting each phase as progress; returns its summary. A failed preparation answers its error and fix.',
  input: z.strictObject({
    device: deviceField,
    timeoutMs: z.number().int().min(0).max(MAX_DEVICE_WAIT_MS).optional().describe(`default ${DEFAULT_DEVICE_WAIT_MS}`),
  }),
  output: deviceSummary,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'devices',
  // The pipeline does the waiting (with progress) before the handler runs.
  deviceWaitMs: ({ timeoutMs }) => timeoutMs ?? DEFAULT_DEVICE_WAIT_MS,
  handler: async (ctx, { device }) => ctx.hub.summary(device),
  summarize: (d) => `${d.id} "${d.name}" is ${d.state}${d.note ? `: ${d.note}` : ''}`,
});
