import { inkColumnRuns, inkRows, textBands } from './text-bands';

const WIDTH = 40;

/** A white image with dark boxes spanning the given rows [top, bottom). */
function imageWith(height: number, inkRows: [number, number][]): Uint8Array {
  const gray = new Uint8Array(WIDTH * height).fill(250);
  for (const [top, bottom] of inkRows) for (let y = top; y < bottom; y++) for (let x = 5; x < 30; x += 2) gray[y * WIDTH + x] = 20;
  return gray;
}

describe('textBands', () => {
  it('cuts at blank rows, pads every band alike and skips rows too thin to hold text', () => {
    const bands = textBands(imageWith(200, [[20, 40], [60, 61], [90, 115]]), WIDTH, 200);
    expect(bands.map((band) => [band.imageTop, band.height])).toEqual([
      [10, 40],
      [80, 45],
    ]);
  });

  it('gives a band that moved the same pixels, so it is recognised by its hash wherever it is', () => {
    const [before] = textBands(imageWith(200, [[50, 70]]), WIDTH, 200);
    const [after] = textBands(imageWith(200, [[23, 43]]), WIDTH, 200);
    expect(after.imageTop).toBe(before.imageTop - 27);
    expect(Buffer.from(after.gray).equals(Buffer.from(before.gray))).toBe(true);
  });

  it('counts two close greys as blank (grouped cells on a grey ground) and pads the screen edges white', () => {
    const gray = imageWith(100, [[0, 12]]);
    for (let y = 12; y < 100; y++) for (let x = 0; x < 8; x++) gray[y * WIDTH + x] = 236;
    const [band] = textBands(gray, WIDTH, 100);
    expect([band.imageTop, band.height]).toEqual([-10, 32]);
    expect(band.gray.subarray(0, WIDTH).every((v) => v === 255)).toBe(true);
  });

  it('tells where a band has ink: its rows, and the runs of columns any of its rows darkens', () => {
    const gray = imageWith(100, [[40, 52]]);
    for (let y = 44; y < 48; y++) for (let x = 34; x < 37; x++) gray[y * WIDTH + x] = 90;
    const [band] = textBands(gray, WIDTH, 100);
    expect(inkRows(band)).toEqual([40, 52]);
    // imageWith inks every other column from 5 to 29; the second mark spans columns 34–36.
    const runs = inkColumnRuns(band, WIDTH);
    expect(runs[0]).toEqual([5, 6]);
    expect(runs[runs.length - 1]).toEqual([34, 37]);
    expect(runs).toHaveLength(14);
  });
});
