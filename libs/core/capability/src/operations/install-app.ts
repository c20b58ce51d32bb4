import { z } from 'zod';
import { installApp } from '@apex/hub';
import { appRootsOf, defineOperation } from '../define-operation';
import { readBuild } from '../builds';
import { deviceField, hostPathField } from '../schemas';

export const installAppOperation = defineOperation({
  name: 'install_app',
  title: 'Install app',
  description:
    "Installs a build from a path on the Apex host: an .app folder or its .ipa/.zip (iOS), an .apk (Android); replaces an installed build of the same id. Returns the build's app id, name, version.",
  input: z.strictObject({ device: deviceField, path: hostPathField('on the Apex host, inside its allowed folders') }),
  output: z.object({ appId: z.string(), name: z.string(), version: z.string().optional(), replaced: z.boolean() }),
  // Replacing a build keeps the app's data on most platforms, but the old build is gone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  toolset: 'apps',
  handler: async (ctx, { device, path }) => {
    const build = await readBuild(path, appRootsOf(ctx));
    const { replaced } = await installApp(ctx.hub, device, build);
    return { appId: build.appId, name: build.name, ...(build.version ? { version: build.version } : {}), replaced };
  },
  summarize: (s) => `${s.replaced ? 'Replaced' : 'Installed'} ${s.name} (${s.appId}${s.version ? ` ${s.version}` : ''}).`,
});
