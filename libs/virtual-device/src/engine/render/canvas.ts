import type * as Canvas from '@napi-rs/canvas';

let loaded: typeof Canvas | undefined;

/**
 * @napi-rs/canvas, required on first use rather than when the phone starts (~7 ms of start-up otherwise): the
 * phone draws only when someone looks at it. Every drawing of the phone reaches the canvas through here.
 */
export function canvasApi(): typeof Canvas {
  loaded ??= require('@napi-rs/canvas') as typeof Canvas;
  return loaded;
}
