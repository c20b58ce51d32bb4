import type { Appearance, Orientation } from '@apex/port';
import { AGENT_ORIENTATIONS, keyboardFailure, pasteboardText, rotationFailure, urlFailure } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** http(s) opens Safari, an app's scheme opens that app; a scheme no app handles → `invalid_argument`. */
export async function openUrl(ctx: WdaContext, url: string, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/url', body: { url }, signal }),
    (e) => urlFailure(e, ctx.deviceId, url),
  );
}

/** "Unable To Rotate Device" (an app without that orientation, or the home screen) → `device_error`. */
export async function setOrientation(ctx: WdaContext, orientation: Orientation, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/orientation', body: { orientation: AGENT_ORIENTATIONS[orientation] }, signal }),
    (e) => rotationFailure(e, ctx.deviceId, orientation),
  );
}

export async function getClipboard(ctx: WdaContext, signal: AbortSignal): Promise<string> {
  const reply = await ctx.session.send({ method: 'POST', path: '/wda/getPasteboard', body: { contentType: 'plaintext' }, idempotent: true, signal });
  return pasteboardText.decode(reply.value);
}

export async function setClipboard(ctx: WdaContext, text: string, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/wda/setPasteboard', body: { content: pasteboardText.encode(text), contentType: 'plaintext' }, signal });
}

/** `/wda/lock` and `/wda/unlock` need no session. Unlocking does not enter a passcode. */
export async function setLocked(ctx: WdaContext, locked: boolean, signal: AbortSignal): Promise<void> {
  await ctx.client.send({ method: 'POST', path: locked ? '/wda/lock' : '/wda/unlock', signal });
}

/**
 * On an iPhone the agent can only hide the keyboard by pressing a key or button it is named (WDA-PROTOCOL.md
 * §7): `done`, as Appium sends too. Not `return`: in a text view that types a newline, in a form it submits.
 */
export async function hideKeyboard(ctx: WdaContext, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/wda/keyboard/dismiss', body: { keyNames: ['done'] }, signal }),
    (e) => keyboardFailure(e, ctx.deviceId),
  );
}

/** Registered without a session only (under `/session/:id` it is an unknown command). */
export async function setAppearance(ctx: WdaContext, appearance: Appearance, signal: AbortSignal): Promise<void> {
  await ctx.client.send({ method: 'POST', path: '/wda/device/appearance', body: { name: appearance }, signal });
}
