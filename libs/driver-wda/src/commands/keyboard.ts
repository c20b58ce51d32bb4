import { ApexError } from '@apex/errors';
import type { TypeTextRequest } from '@apex/capability';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Types into the focused element; `submit` appends a newline, which presses return. */
export async function typeText(ctx: WdaContext, request: TypeTextRequest): Promise<void> {
  const text = request.submit ? `${request.text}\n` : request.text;
  try {
    await ctx.session.send({ method: 'POST', path: '/wda/keys', body: { value: [text] } });
  } catch (error) {
    if (error instanceof WebDriverProtocolError && error.error === 'invalid element state') {
      throw new ApexError('element_not_found', `Device ${ctx.deviceId}: no text field has keyboard focus, so nothing was typed.`, {
        hint: 'Tap the text field first, then type.',
        cause: error,
      });
    }
    throw error;
  }
}
