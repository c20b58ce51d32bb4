import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

type Constructor = abstract new (...args: never[]) => object;

/**
 * A constructor of `base` objects whose prototype is `prototype` (which must inherit from `base.prototype`).
 * Node's own IncomingMessage and ServerResponse are plain functions; should one become a class, it is
 * constructed with `prototype` as its target instead.
 */
export function madeWith(base: Constructor, prototype: object): Constructor {
  const isClass = Function.prototype.toString.call(base).startsWith('class');
  function made(this: object, ...args: unknown[]): object | undefined {
    if (isClass) return Reflect.construct(base, args, made) as object;
    (base as unknown as (...args: unknown[]) => void).apply(this, args);
    return undefined;
  }
  made.prototype = prototype;
  return made as unknown as Constructor;
}

/**
 * The node:http server of an Express app, whose requests and responses are made with Express's prototypes from
 * the start (Node's IncomingMessage and ServerResponse options). Express gives every request and response its
 * own prototype as it arrives (Object.setPrototypeOf), which re-shapes both objects in V8: ~60 µs a request
 * on this machine, more than the routing itself. Made with that prototype, the change is a no-op.
 */
export function createExpressServer(app: Express): Server {
  const prototypes = app as unknown as { request: object; response: object };
  return createServer(
    {
      IncomingMessage: madeWith(IncomingMessage, prototypes.request) as typeof IncomingMessage,
      ServerResponse: madeWith(ServerResponse, prototypes.response) as typeof ServerResponse,
    },
    app,
  );
}
