import { ApexError } from '@apex/errors';
import { normalizeAndroidSource } from '@apex/android-source';
import { elementId } from '@apex/ios-source';
import { TEXT_INPUT_ROLES, type RawScreenshot, type Rect, type ScreenGeometry, type UiNode } from '@apex/port';
import { execBytes, okText, shell, type AdbContext } from '../adb-context';
import { parseDisplay, parseKeyboardFrame, type DisplayInfo, type PixelRect } from '../parse/dumpsys';
import { readUiDump } from '../parse/ui-dump';

/*
 * The screen: its size from WindowManager's dump, captures with `screencap -p`, and the element tree with
 * `uiautomator dump`. Apex speaks dp (density-independent pixels): scale = density (dpi) / 160.
 */

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** `dumpsys window displays`: pixels in the current rotation, density, rotation. */
export async function display(ctx: AdbContext, signal: AbortSignal): Promise<DisplayInfo> {
  const text = okText(await shell(ctx, ['dumpsys', 'window', 'displays'], signal));
  const info = parseDisplay(text);
  if (!info || info.densityDpi <= 0 || info.width <= 0 || info.height <= 0) {
    throw new ApexError('device_error', `Device ${ctx.deviceId} did not report its screen size and density.`, {
      hint: 'Retry once the phone has finished starting.',
      cause: new Error(text.slice(0, 500)),
    });
  }
  ctx.scale = scaleOf(info);
  return info;
}

/**
 * Pixels per dp: remembered from the last display read (status and screen refresh it), else read once. One
 * round trip fewer for every capture, tree and gesture; the density changes only with a display override.
 */
export async function knownScale(ctx: AdbContext, signal: AbortSignal): Promise<number> {
  return ctx.scale ?? scaleOf(await display(ctx, signal));
}

export function scaleOf(info: DisplayInfo): number {
  return info.densityDpi / 160;
}

export function geometryOf(info: DisplayInfo): ScreenGeometry {
  const scale = scaleOf(info);
  return { width: round2(info.width / scale), height: round2(info.height / scale), scale };
}

export async function screenGeometry(ctx: AdbContext, signal: AbortSignal): Promise<ScreenGeometry> {
  return geometryOf(await display(ctx, signal));
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `exec:screencap -p`: the PNG as the device encodes it (raw bytes, no terminal in between). */
export async function screenshot(ctx: AdbContext, signal: AbortSignal): Promise<RawScreenshot> {
  const [png, scale] = await Promise.all([execBytes(ctx, ['screencap', '-p'], signal), knownScale(ctx, signal)]);
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new ApexError('device_error', `Device ${ctx.deviceId} did not return a screen capture.`, {
      hint: 'Retry; a screen showing protected content cannot be captured.',
      cause: new Error(png.subarray(0, 200).toString('utf8')),
    });
  }
  // IHDR: width and height, big-endian, right after the signature and the chunk's length and type.
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20), scale };
}

/** The soft keyboard's frame while it is up, or undefined (also when the window manager does not say). */
async function keyboardFrame(ctx: AdbContext, signal: AbortSignal): Promise<PixelRect | undefined> {
  const result = await shell(ctx, ['dumpsys', 'window', 'InputMethod'], signal);
  return result.exitCode === 0 ? parseKeyboardFrame(result.stdout.toString('utf8')) : undefined;
}

/**
 * `uiautomator dump /dev/tty` (over `exec:`: raw bytes, no shell framing): the active window's accessibility
 * tree, normalized in dp. The soft keyboard is a window of its own that the dump leaves out; it can only be up
 * while a text input has focus, so only then is the window manager asked for its frame, and the keyboard added
 * to the root as a `keyboard` (its keys are not known).
 */
export async function uiTree(ctx: AdbContext, signal: AbortSignal): Promise<UiNode> {
  const [dump, scale] = await Promise.all([execBytes(ctx, ['uiautomator', 'dump', '/dev/tty'], signal), knownScale(ctx, signal)]);
  const text = dump.toString('utf8');
  const xml = readUiDump(text);
  if (xml === undefined) {
    throw new ApexError('device_error', `Device ${ctx.deviceId} could not describe its screen right now.`, {
      hint: 'Retry; the screen may have been animating.',
      retryable: true,
      cause: new Error(text.slice(0, 600)),
    });
  }
  const root = ctx.sources.treeOf(xml, scale, () => normalizeAndroidSource(xml, ctx.deviceId, scale));
  if (hasFocusedTextInput(root)) {
    const keyboard = await keyboardFrame(ctx, signal);
    if (keyboard) return { ...root, children: [...root.children, keyboardNode(keyboard, scale, root.children.length)] };
  }
  return root;
}

function hasFocusedTextInput(node: UiNode): boolean {
  return (node.focused && TEXT_INPUT_ROLES.has(node.role)) || node.children.some(hasFocusedTextInput);
}

function keyboardNode(frame: PixelRect, scale: number, index: number): UiNode {
  const bounds: Rect = {
    x: round2(frame.left / scale),
    y: round2(frame.top / scale),
    width: round2((frame.right - frame.left) / scale),
    height: round2((frame.bottom - frame.top) / scale),
  };
  return { id: elementId('keyboard', bounds, undefined, [index]), role: 'keyboard', bounds, enabled: true, visible: true, selected: false, focused: false, children: [] };
}
