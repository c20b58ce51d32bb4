import { z } from 'zod';
import { terminateApp } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const terminateAppOperation = defineOperation({
  name: 'terminate_app',
  title: 'Terminate app',
  description: 'Force-quits a running app (unsaved state in it is lost).',
  input: z.strictObject({ device: deviceField, appId: appIdField }),
  output: z.object({ appId: z.string(), wasRunning: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  toolset: 'apps',
  acts: true,
  handler: async (ctx, { device, appId }) => ({ appId, wasRunning: await terminateApp(ctx.hub, device, appId) }),
  summarize: (s) => (s.wasRunning ? `Terminated ${s.appId}.` : `${s.appId} was not running.`),
});
