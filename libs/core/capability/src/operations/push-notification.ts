import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { pushNotification } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_NOTIFICATION_BODY_LENGTH, MAX_NOTIFICATION_PAYLOAD_BYTES, MAX_NOTIFICATION_TITLE_LENGTH } from '../limits';
import { appIdField, deviceField } from '../schemas';

export const pushNotificationOperation = defineOperation({
  name: 'push_notification',
  title: 'Push notification',
  description: 'Delivers a notification to an app as if from its server (a banner; tapping it opens the app). `payload`: extra keys for the app.',
  input: z.strictObject({
    device: deviceField,
    appId: appIdField,
    title: z.string().min(1).max(MAX_NOTIFICATION_TITLE_LENGTH),
    body: z.string().min(1).max(MAX_NOTIFICATION_BODY_LENGTH),
    payload: z.record(z.string().max(100), z.unknown()).optional(),
  }),
  output: z.object({ appId: z.string(), delivered: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'environment',
  acts: true,
  handler: async (ctx, { device, appId, title, body, payload }) => {
    if (payload !== undefined && Buffer.byteLength(JSON.stringify(payload)) > MAX_NOTIFICATION_PAYLOAD_BYTES) {
      throw invalidArgument(`The payload is larger than ${MAX_NOTIFICATION_PAYLOAD_BYTES} bytes of JSON.`, [{ path: 'payload', message: 'too large' }], 'Send only the keys the app reads.');
    }
    await pushNotification(ctx.hub, device, { appId, title, body, ...(payload ? { payload } : {}) });
    return { appId, delivered: true as const };
  },
  summarize: (s) => `Notification delivered to ${s.appId}.`,
});
