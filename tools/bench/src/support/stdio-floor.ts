import { spawn } from 'node:child_process';

/**
 * The floor of any MCP server over stdio that asks the phone: a child process that, for each request line, makes
 * one keep-alive `GET <url>/screenshot` and answers one JSON line of a given size. No MCP, no validation, no image
 * work: the two process hops (client → server over a pipe, server → phone over loopback TCP) and the reply's bytes
 * through the pipe, which an MCP server cannot avoid.
 */
export interface StdioFloor {
  /** One request: the child calls the phone, then answers `replyChars` characters of JSON. */
  call(replyChars: number): Promise<void>;
  close(): Promise<void>;
}

const CHILD = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL('/screenshot', process.argv[1]);
let buffered = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf('\\n'); nl >= 0; nl = buffered.indexOf('\\n')) {
    const { id, chars } = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    http.get(url, { agent }, (res) => {
      const parts = [];
      res.on('data', (part) => parts.push(part)).on('end', () => {
        if (res.statusCode !== 200) throw new Error('phone answered ' + res.statusCode);
        Buffer.concat(parts).toString('utf8'); // decoded, as a server reading the phone's JSON would
        process.stdout.write(JSON.stringify({ id, pad: 'x'.repeat(Math.max(0, chars - 20)) }) + '\\n');
      });
    });
  }
});
`;

export function startStdioFloor(phoneUrl: string): StdioFloor {
  const child = spawn(process.execPath, ['-e', CHILD, phoneUrl], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const { id } = JSON.parse(buffered.slice(0, nl)) as { id: number };
      buffered = buffered.slice(nl + 1);
      waiting.get(id)?.resolve();
      waiting.delete(id);
    }
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      for (const call of waiting.values()) call.reject(new Error('the stdio floor exited'));
      waiting.clear();
      resolve();
    }),
  );
  return {
    call(replyChars) {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id, chars: replyChars })}\n`);
      });
    },
    async close() {
      child.stdin.end();
      child.kill();
      await exited;
    },
  };
}
