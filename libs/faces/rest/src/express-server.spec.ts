import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { rawWda } from '@apex/testing';
import { createExpressServer, madeWith } from './express-server';

describe('the Express server', () => {
  it("makes requests and responses with the app's prototypes (Express's own change of them is then a no-op)", async () => {
    const app = express();
    const prototypes = app as unknown as { request: object; response: object };
    app.get('/seen/:name', (req, res) => {
      res.json({
        request: Object.getPrototypeOf(req) === prototypes.request && req instanceof IncomingMessage,
        response: Object.getPrototypeOf(res) === prototypes.response && res instanceof ServerResponse,
        // Express's request and response methods work as usual.
        path: req.path,
        name: req.params.name,
      });
    });
    const server = createExpressServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = rawWda(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      for (let i = 0; i < 2; i++) {
        expect((await client.get('/seen/phone')).json).toEqual({ request: true, response: true, path: '/seen/phone', name: 'phone' });
      }
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('makes objects of a class too, with the prototype given', () => {
    class Base {
      constructor(readonly value: number) {}
    }
    const prototype = Object.create(Base.prototype) as object;
    const Made = madeWith(Base, prototype) as unknown as new (value: number) => Base;
    const made = new Made(7);
    expect(Object.getPrototypeOf(made)).toBe(prototype);
    expect(made).toBeInstanceOf(Base);
    expect(made.value).toBe(7);
  });
});
