import type { AlertAction, AlertInfo } from '@apex/port';
import { alertFailure, alertInfoOf } from '@apex/ios-source';
import { WebDriverProtocolError, withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** The alert on screen (`/alert/text`: title and message; `/wda/alert/buttons`), or undefined when none is. */
export async function alert(ctx: WdaContext, signal: AbortSignal): Promise<AlertInfo | undefined> {
  try {
    const text = await ctx.session.send({ method: 'GET', path: '/alert/text', idempotent: true, signal });
    const buttons = await ctx.session.send({ method: 'GET', path: '/wda/alert/buttons', idempotent: true, signal });
    return alertInfoOf(text.value, buttons.value);
  } catch (error) {
    if (error instanceof WebDriverProtocolError && error.error === 'no such alert') return undefined;
    throw error;
  }
}

/** accept presses the alert's last button, dismiss its first; `press` names the button (`{name}`). */
export async function handleAlert(ctx: WdaContext, action: AlertAction, signal: AbortSignal): Promise<void> {
  const [path, body, button] =
    action.kind === 'press' ? ['/alert/accept', { name: action.button }, action.button] : [`/alert/${action.kind}`, {}, undefined];
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path, body, signal }),
    (e) => alertFailure(e, ctx.deviceId, button),
  );
}
