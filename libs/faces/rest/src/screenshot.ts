import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationResult } from '@apex/capability';
import { sendJson } from './respond';

/** Quality of the best match for `wanted` in an Accept header (0 when absent). Wildcards are not counted. */
function acceptQuality(accept: string, wanted: (type: string) => boolean): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (!wanted(type.trim())) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    best = Math.max(best, q === undefined ? 1 : Number(q) || 0);
  }
  return best;
}

/** JSON when the client names application/json at least as strongly as any image type. */
function wantsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (!accept) return false;
  const json = acceptQuality(accept, (t) => t === 'application/json');
  const image = acceptQuality(accept, (t) => t.startsWith('image/'));
  return json > 0 && json >= image;
}

/**
 * The screenshot answer: the image bytes with their size in headers, or — for `Accept: application/json` —
 * the structured result plus the bytes in base64.
 */
export function sendScreenshot(req: IncomingMessage, res: ServerResponse, result: OperationResult): void {
  const image = result.image;
  if (!image) {
    sendJson(res, 200, result.output);
    return;
  }
  if (wantsJson(req)) {
    sendJson(res, 200, { ...result.output, data: image.data.toString('base64') });
    return;
  }
  const output = result.output as { width?: number; height?: number; pixelsPerPoint?: number };
  res.writeHead(200, {
    'Content-Type': image.mimeType,
    'Content-Length': image.data.length,
    'Cache-Control': 'no-store',
    Vary: 'Accept, Origin',
    'X-Image-Width': String(output.width ?? ''),
    'X-Image-Height': String(output.height ?? ''),
    'X-Pixels-Per-Point': String(output.pixelsPerPoint ?? ''),
  });
  res.end(image.data);
}
