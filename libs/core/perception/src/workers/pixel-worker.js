'use strict';
/**
 * Worker-thread entry of the pixel pool (pixel-pool.ts): runs the kernels on what the main thread sends and
 * answers `{ id, result }` or `{ id, error }`. Plain JavaScript: a worker gets no TypeScript loader.
 */
const { parentPort } = require('node:worker_threads');
const { scoreJobs, screenSearchImages } = require('./pixel-kernels');

parentPort.on('message', (request) => {
  try {
    if (request.kind === 'screen') {
      // Shared memory: posting the images back copies nothing.
      parentPort.postMessage({ id: request.id, result: screenSearchImages(request.gray) });
    } else if (request.kind === 'scores') {
      const maps = scoreJobs(request.target, request.jobs);
      const buffers = maps.filter((map) => map !== undefined).map((map) => map.scores.buffer);
      parentPort.postMessage({ id: request.id, result: maps }, buffers);
    } else {
      throw new Error(`unknown request kind ${request.kind}`);
    }
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
