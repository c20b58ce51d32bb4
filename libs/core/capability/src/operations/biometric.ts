import { z } from 'zod';
import { biometric } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const BIOMETRIC_ACTIONS = ['enroll', 'unenroll', 'match', 'fail'] as const;

export const biometricOperation = defineOperation({
  name: 'biometric',
  title: 'Biometric',
  description: 'Face ID / Touch ID / fingerprint on a simulated device: enroll, unenroll, or answer a pending prompt with a match or a failed match.',
  input: z.strictObject({ device: deviceField, action: z.enum(BIOMETRIC_ACTIONS) }),
  output: z.object({ action: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'environment',
  acts: true,
  handler: async (ctx, { device, action }) => {
    await biometric(ctx.hub, device, action);
    return { action };
  },
  summarize: (s) => `Biometric ${s.action} done.`,
});
