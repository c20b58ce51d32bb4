import type { TypeTextRequest } from '@apex/port';
import { typingFailure } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import type { AppiumContext } from '../context';

/**
 * Types into the focused element; `submit` appends a newline, which presses return.
 *
 * `POST /session/:id/keys` is forwarded by the XCUITest driver to the agent's `/wda/keys` — the route the
 * direct driver uses, so both type the same way and fail the same way (`invalid element state` when nothing
 * has focus). The alternatives were checked: `mobile: keys` goes to `/wda/element/0/keyboardInput` (typeKey,
 * iOS 17+ agents only, not served by the virtual iPhone); W3C key actions type one key event at a time;
 * `/element/active` + `/element/:id/value` costs two round trips. The route is marked deprecated by the
 * XCUITest driver (12.x still serves it).
 */
export async function typeText(ctx: AppiumContext, request: TypeTextRequest, signal: AbortSignal): Promise<void> {
  const text = request.submit ? `${request.text}\n` : request.text;
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/keys', body: { value: [text] }, signal }),
    (e) => typingFailure(e, ctx.deviceId),
  );
}
