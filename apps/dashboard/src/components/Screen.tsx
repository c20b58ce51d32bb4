import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api';
import { decodeImage, FrameGate } from '../frame-gate';
import { startFrames, type FrameMode } from '../frames';
import { gestureOf, screenInPoints, toPercentBox, toPoints, wheelSwipe, type Gesture } from '../geometry';
import type { Point, Rect } from '../types';

export type OutlineKind = 'hover' | 'selected' | 'tree' | 'ocr';

export interface Outline {
  rect: Rect;
  kind: OutlineKind;
  label?: string;
}

interface ScreenProps {
  device: string;
  /** The device's screen in points (device_status). */
  screen: { width: number; height: number };
  outlines: Outline[];
  onGesture: (gesture: Gesture) => void;
  onScroll: (swipe: { from: Point; to: Point }) => void;
  onType: (text: string, submit: boolean) => void;
  onHover: (point: Point | undefined) => void;
  onError: (error: ApiError | undefined) => void;
  /** The screen shows something new (a frame that differs from the one before). */
  onChange: () => void;
}

/** How long typed keys gather before they go to the phone as one input_text. */
const TYPING_GATHER_MS = 250;
const WHEEL_GATHER_MS = 150;

/**
 * The live screen in a box of the device's aspect ratio (no layout shift between frames). Pointer presses
 * become taps, long presses and swipes at the points under the pointer; the wheel scrolls; typed keys go to
 * the focused field.
 */
export function Screen(props: ScreenProps) {
  const [frame, setFrame] = useState<string>();
  const [frameSize, setFrameSize] = useState<{ width: number; height: number }>();
  const [mode, setMode] = useState<FrameMode>();
  const [frames, setFrames] = useState(0);
  const imageRef = useRef<HTMLImageElement>(null);
  const shown = useRef<string>(undefined);
  const pending = useRef<string>(undefined);
  const press = useRef<{ at: Point; time: number; id: number }>(undefined);
  const typed = useRef({ text: '', timer: 0 });
  const wheel = useRef({ delta: 0, at: { x: 0, y: 0 }, timer: 0 });
  const handlers = useRef(props);
  handlers.current = props;

  useEffect(() => {
    setFrame(undefined);
    const gate = new FrameGate(
      decodeImage,
      (url) => {
        // A frame replaced before the <img> loaded it is dropped at once.
        if (pending.current && pending.current !== shown.current) URL.revokeObjectURL(pending.current);
        pending.current = url;
        setFrame(url);
      },
      (url) => URL.revokeObjectURL(url),
    );
    const stop = startFrames(props.device, {
      frame: (url, changed) => {
        setFrames((n) => n + 1);
        gate.push(url);
        if (changed) handlers.current.onChange();
      },
      repeat: () => setFrames((n) => n + 1),
      mode: setMode,
      error: (error) => handlers.current.onError(error),
    });
    return () => {
      stop();
      gate.close();
      if (shown.current) URL.revokeObjectURL(shown.current);
      shown.current = undefined;
    };
  }, [props.device]);

  const screen = screenInPoints(props.screen, frameSize);
  const pointOf = (event: { clientX: number; clientY: number }): Point | undefined => {
    const box = imageRef.current?.getBoundingClientRect();
    return box && box.width > 0 ? toPoints(event.clientX, event.clientY, box, screen) : undefined;
  };

  const flushTyping = (submit: boolean) => {
    window.clearTimeout(typed.current.timer);
    const text = typed.current.text;
    typed.current.text = '';
    if (text || submit) props.onType(text || '\n', submit && text !== '');
  };

  return (
    <div class="screen-wrap">
      <div
        class="screen-box"
        style={{ aspectRatio: `${screen.width} / ${screen.height}` }}
        tabIndex={0}
        role="application"
        aria-label="Device screen: click to tap, hold to long-press, drag to swipe, scroll to scroll, type to enter text"
        aria-roledescription="live device screen"
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          const at = pointOf(event);
          if (!at) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          // Focus for the keyboard without scrolling: a scroll between press and release would make a tap a swipe.
          event.currentTarget.focus({ preventScroll: true });
          press.current = { at, time: event.timeStamp, id: event.pointerId };
        }}
        onPointerUp={(event) => {
          const start = press.current;
          press.current = undefined;
          const at = pointOf(event);
          if (!start || !at || start.id !== event.pointerId) return;
          props.onGesture(gestureOf(start.at, at, event.timeStamp - start.time));
        }}
        onPointerCancel={() => (press.current = undefined)}
        onPointerMove={(event) => {
          if (press.current) return;
          props.onHover(pointOf(event));
        }}
        onPointerLeave={() => props.onHover(undefined)}
        onWheel={(event) => {
          const at = pointOf(event);
          if (!at) return;
          event.preventDefault();
          wheel.current.delta += event.deltaY;
          wheel.current.at = at;
          window.clearTimeout(wheel.current.timer);
          wheel.current.timer = window.setTimeout(() => {
            const { delta, at: point } = wheel.current;
            wheel.current.delta = 0;
            if (Math.abs(delta) >= 1) props.onScroll(wheelSwipe(point, delta, screen));
          }, WHEEL_GATHER_MS);
        }}
        onKeyDown={(event) => {
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          if (event.key === 'Enter') {
            event.preventDefault();
            flushTyping(true);
          } else if (event.key.length === 1) {
            event.preventDefault();
            typed.current.text += event.key;
            window.clearTimeout(typed.current.timer);
            typed.current.timer = window.setTimeout(() => flushTyping(false), TYPING_GATHER_MS);
          }
        }}
      >
        {frame ? (
          <img
            ref={imageRef}
            class="screen-image"
            data-testid="screen"
            data-frames={frames}
            src={frame}
            alt="The device's screen"
            draggable={false}
            onLoad={(event) => {
              const img = event.currentTarget;
              setFrameSize({ width: img.naturalWidth, height: img.naturalHeight });
              if (shown.current && shown.current !== img.src) URL.revokeObjectURL(shown.current);
              shown.current = img.src;
            }}
          />
        ) : (
          <div class="screen-placeholder" data-testid="screen" ref={imageRef as never}>
            Connecting to the screen…
          </div>
        )}
        <div class="outlines" aria-hidden="true">
          {props.outlines.map((outline, i) => (
            <div
              key={`${outline.kind}-${i}`}
              class={`outline outline-${outline.kind}`}
              data-testid="screen-outline"
              data-kind={outline.kind}
              data-label={outline.label}
              style={toPercentBox(outline.rect, screen)}
            />
          ))}
        </div>
      </div>
      <p class="muted small screen-meta" aria-live="off">
        {mode === 'stream' ? 'Live stream' : mode === 'screenshots' ? 'Live (screenshots)' : 'Connecting…'} · {screen.width}×{screen.height} pt
      </p>
    </div>
  );
}
