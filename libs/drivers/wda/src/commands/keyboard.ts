import type { TypeTextRequest } from '@apex/port';
import { typingFailure } from '@apex/ios-source';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Types into the focused element; `submit` appends a newline, which presses return. */
export async function typeText(ctx: WdaContext, request: TypeTextRequest, signal: AbortSignal): Promise<void> {
  const text = request.submit ? `${request.text}\n` : request.text;
  try {
    await ctx.session.send({ method: 'POST', path: '/wda/keys', body: { value: [text] }, signal });
  } catch (error) {
    if (error instanceof WebDriverProtocolError) throw typingFailure(error, ctx.deviceId) ?? error;
    throw error;
  }
}
