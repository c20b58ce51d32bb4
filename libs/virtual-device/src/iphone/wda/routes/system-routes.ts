import type { PasteboardType } from '../../model';
import type { Route, RouteContext } from '../router';
import { WdaError, invalidArgument, unknownError } from '../wda-error';
import { onPhone } from './helpers';

/** URLs, pasteboard, keyboard and appearance (FBSessionCommands.m, FBCustomCommands.m). */

function openUrl(context: RouteContext) {
  const url = context.body['url'];
  if (typeof url !== 'string' || url === '') throw invalidArgument('URL is required');
  onPhone(() => context.phone.openUrl(url), {
    // LaunchServices' answer when no app claims the scheme (the text is the OS's, not WDA's).
    no_app_for_url: () =>
      unknownError(`The URL "${url}" could not be opened: Error Domain=NSOSStatusErrorDomain Code=-10814 "(null)" UserInfo={_LSLine=1608, _LSFunction=_LSOpenStuffCallLocal}`),
  });
  return null;
}

const PASTEBOARD_TYPES: readonly PasteboardType[] = ['plaintext', 'image', 'url'];

function pasteboardType(context: RouteContext): PasteboardType {
  const type = context.body['contentType'] ?? 'plaintext';
  if (typeof type !== 'string' || !(PASTEBOARD_TYPES as readonly string[]).includes(type.toLowerCase())) {
    throw unknownError(`Unsupported content type: ${String(type)}`);
  }
  return type.toLowerCase() as PasteboardType;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function setPasteboard(context: RouteContext) {
  const content = context.body['content'];
  if (typeof content !== 'string' || content.length % 4 === 1 || !BASE64.test(content.replace(/\s/g, ''))) {
    throw invalidArgument('Cannot decode the pasteboard content from base64');
  }
  const type = pasteboardType(context);
  onPhone(() => context.phone.setPasteboard(type, Buffer.from(content, 'base64')));
  return null;
}

function getPasteboard(context: RouteContext) {
  const type = pasteboardType(context);
  return context.phone.pasteboard(type).toString('base64');
}

/**
 * On an iPhone only a key (or button) named in `keyNames` can hide the keyboard; without one WDA gives up.
 * A keyboard that is not shown is dismissed already.
 */
function dismissKeyboard(context: RouteContext) {
  const keyNames = context.body['keyNames'] ?? [];
  if (!Array.isArray(keyNames) || !keyNames.every((k) => typeof k === 'string')) throw invalidArgument("'keyNames' must be an array of strings");
  onPhone(() => context.phone.dismissKeyboard(keyNames as string[]), {
    keyboard_stays: () =>
      new WdaError(
        'invalid element state',
        keyNames.length === 0
          ? 'The keyboard on iPhone cannot be dismissed because of a known XCTest issue. Try to dismiss it in the way supported by your application under test.'
          : `The keyboard cannot be dismissed. None of the given keys [${keyNames.join(', ')}] hides it. Try to dismiss it in the way supported by your application under test.`,
      ),
  });
  return null;
}

function setAppearance(context: RouteContext) {
  const name = context.body['name'];
  const style = typeof name === 'string' ? name.toLowerCase() : undefined;
  if (style !== 'light' && style !== 'dark') throw invalidArgument(`The appearance name must be either 'light' or 'dark'. '${String(name)}' was given instead`);
  onPhone(() => context.phone.setAppearance(style));
  return null;
}

export const systemRoutes: Route[] = [
  { method: 'POST', pattern: '/url', mode: 'S', handler: openUrl },
  { method: 'POST', pattern: '/wda/setPasteboard', mode: 'S', handler: setPasteboard },
  { method: 'POST', pattern: '/wda/getPasteboard', mode: 'S', handler: getPasteboard },
  { method: 'POST', pattern: '/wda/keyboard/dismiss', mode: 'S', handler: dismissKeyboard },
  // Registered without a session only: under /session/:id it is an unknown command.
  { method: 'POST', pattern: '/wda/device/appearance', mode: 'N', handler: setAppearance },
];
