import type { Route, RouteContext } from '../router';
import { accessibleSource, jsonSource } from '../source-json';
import { descriptionSource } from '../source-description';
import { xmlSource } from '../source-xml';
import { WdaError, invalidArgument } from '../wda-error';

/** Screenshots, window geometry and the page source (FBScreenshotCommands.m, FBDebugCommands.m). */

function screenshot(context: RouteContext) {
  try {
    return context.face.screenshotBase64();
  } catch (error) {
    throw new WdaError('unable to capture screen', error instanceof Error ? error.message : String(error));
  }
}

function windowSize(context: RouteContext) {
  const { width, height } = context.phone.screenSize();
  return { width: Math.round(width), height: Math.round(height) };
}

function screen(context: RouteContext) {
  const { profile } = context.phone;
  const size = windowSize(context);
  // iPhones hide the status bar in landscape.
  const statusBarHeight = context.phone.orientation() === 'LANDSCAPE' ? 0 : profile.statusBarHeight;
  return { screenSize: size, statusBarSize: { width: size.width, height: statusBarHeight }, scale: profile.scale };
}

function source(context: RouteContext) {
  const format = (context.query['format'] ?? 'xml').toLowerCase();
  const scope = context.query['scope'];
  const excludedList = (context.query['excluded_attributes'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const excluded = new Set(excludedList);
  const maxDepth = context.session?.settings.snapshotMaxDepth ?? 50;
  const key = `${format}|${scope ?? ''}|${[...excluded].sort().join(',')}|${maxDepth}`;
  const { face } = context;
  switch (format) {
    case 'xml':
      return face.cachedSource(key, () => xmlSource(face.tree(), { scope, excludedAttributes: excluded, maxDepth }));
    case 'json':
      return face.cachedSource(key, () => jsonSource(face.tree().root, excluded, maxDepth));
    case 'description':
      return face.cachedSource(key, () => descriptionSource(face.tree()));
    default:
      throw invalidArgument(`Unknown source format '${format}'. Only xml, json and description source formats are supported.`);
  }
}

export const screenRoutes: Route[] = [
  { method: 'GET', pattern: '/screenshot', mode: 'B', handler: screenshot },
  { method: 'GET', pattern: '/window/size', mode: 'B', handler: windowSize },
  { method: 'GET', pattern: '/window/rect', mode: 'S', handler: (context) => ({ x: 0, y: 0, ...windowSize(context) }) },
  { method: 'GET', pattern: '/wda/screen', mode: 'B', handler: screen },
  { method: 'GET', pattern: '/source', mode: 'B', handler: source },
  {
    method: 'GET',
    pattern: '/wda/accessibleSource',
    mode: 'B',
    handler: (context) => context.face.cachedSource('accessible', () => accessibleSource(context.face.tree().root)),
  },
];
