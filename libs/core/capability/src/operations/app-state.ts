import { z } from 'zod';
import { appState } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const APP_STATES = ['notInstalled', 'notRunning', 'background', 'foreground'] as const;

export const appStateOperation = defineOperation({
  name: 'app_state',
  title: 'App state',
  description: 'Whether an app is notInstalled, notRunning, in the background or in the foreground.',
  input: z.strictObject({ device: deviceField, appId: appIdField }),
  output: z.object({ appId: z.string(), state: z.enum(APP_STATES) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'apps',
  handler: async (ctx, { device, appId }) => ({ appId, state: await appState(ctx.hub, device, appId) }),
  summarize: (s) => `${s.appId}: ${s.state}.`,
});
