import { ApexError, echoName } from '@apex/errors';
import { centerOf, type AlertAction, type AlertInfo, type UiNode } from '@apex/port';
import type { AdbContext } from '../adb-context';
import { uiTree } from './screen';
import { tap } from './touch';

/*
 * Android has no alert API over the shell: alerts are found in the screen's tree (an AlertDialog's panel or the
 * runtime-permission dialog, both role `alert` after normalization) and answered by tapping their buttons.
 */

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

interface ShownAlert {
  info: AlertInfo;
  buttons: UiNode[];
}

function findAlert(root: UiNode): ShownAlert | undefined {
  const alert = flatten(root).find((n) => n.role === 'alert' && n.visible);
  if (!alert) return undefined;
  const inside = flatten(alert).slice(1);
  const buttons = inside.filter((n) => n.role === 'button' && n.visible && n.label);
  const texts = inside.filter((n) => n.role === 'text' && n.visible && n.label).map((n) => n.label as string);
  const info: AlertInfo = { buttons: buttons.map((b) => b.label as string) };
  if (texts.length > 1) {
    info.title = texts[0];
    info.text = texts.slice(1).join('\n');
  } else if (texts.length === 1) info.text = texts[0];
  return { info, buttons };
}

export async function alert(ctx: AdbContext, signal: AbortSignal): Promise<AlertInfo | undefined> {
  return findAlert(await uiTree(ctx, signal))?.info;
}

const ACCEPT = /^(ok|allow|while using the app|yes|continue|accept|got it)$/i;
const DISMISS = /^(cancel|don.t allow|deny|no|dismiss|not now|close)$/i;

export async function handleAlert(ctx: AdbContext, action: AlertAction, signal: AbortSignal): Promise<void> {
  const shown = findAlert(await uiTree(ctx, signal));
  if (!shown) {
    throw new ApexError('element_not_found', `Device ${ctx.deviceId} shows no alert.`, { hint: 'Take a screenshot or read the tree to see what is on screen.' });
  }
  const { buttons } = shown;
  let button: UiNode | undefined;
  if (action.kind === 'press') button = buttons.find((b) => b.label?.toLowerCase() === action.button.toLowerCase());
  else if (action.kind === 'accept') button = buttons.find((b) => ACCEPT.test(b.label ?? '')) ?? buttons[buttons.length - 1];
  else button = buttons.find((b) => DISMISS.test(b.label ?? '')) ?? (buttons.length > 1 ? buttons[0] : undefined);
  if (!button) {
    const wanted = action.kind === 'press' ? `a button "${echoName(action.button)}"` : `a button to ${action.kind} it`;
    throw new ApexError('element_not_found', `The alert on device ${ctx.deviceId} has no ${wanted}.`, {
      hint: `Its buttons: ${shown.info.buttons.map((b) => `"${echoName(b)}"`).join(', ') || 'none'}.`,
    });
  }
  await tap(ctx, centerOf(button.bounds), signal);
}
