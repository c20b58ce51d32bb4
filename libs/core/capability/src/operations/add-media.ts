import { z } from 'zod';
import { addMedia } from '@apex/hub';
import { appRootsOf, defineOperation } from '../define-operation';
import { readMediaFile } from '../builds';
import { MAX_MEDIA_BYTES } from '../limits';
import { deviceField, hostPathField } from '../schemas';

export const addMediaOperation = defineOperation({
  name: 'add_media',
  title: 'Add media',
  description: "Adds a photo (.jpg .png .heic .gif) or video (.mp4 .mov) from a path on the Apex host to the photo library.",
  input: z.strictObject({ device: deviceField, path: hostPathField('on the Apex host, inside its allowed folders') }),
  output: z.object({ kind: z.enum(['photo', 'video']), added: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'environment',
  handler: async (ctx, { device, path }) => {
    const file = await readMediaFile(path, appRootsOf(ctx), MAX_MEDIA_BYTES);
    await addMedia(ctx.hub, device, file);
    return { kind: file.kind, added: true as const };
  },
  summarize: (s) => `Added a ${s.kind} to the photo library.`,
});
