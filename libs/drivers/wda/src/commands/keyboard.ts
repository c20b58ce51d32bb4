import type { TypeTextRequest } from '@apex/port';
import { typingFailure } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Types into the focused element; `submit` appends a newline, which presses return. */
export async function typeText(ctx: WdaContext, request: TypeTextRequest, signal: AbortSignal): Promise<void> {
  const text = request.submit ? `${request.text}\n` : request.text;
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/wda/keys', body: { value: [text] }, signal }),
    (e) => typingFailure(e, ctx.deviceId),
  );
}
