import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * Proves the layer table in eslint.config.mjs bites: each fixture is linted as if it were a file inside
 * the named project, with the workspace's real ESLint configuration.
 */
const workspaceRoot = path.resolve(__dirname, '../../..');

type Fixture = [name: string, projectDir: string, source: string];

const rejected: Fixture[] = [
  ['an app imports a driver', 'apps/mcp-server', "import * as wda from '@apex/driver-wda';\nexport const x = wda;\n"],
  ['a core lib imports a driver', 'libs/core/perception', "import * as wda from '@apex/driver-wda';\nexport const x = wda;\n"],
  ['the virtual device imports a driver', 'libs/virtual-device', "import * as wda from '@apex/driver-wda';\nexport const x = wda;\n"],
  ['a driver imports another driver', 'libs/drivers/appium', "import * as wda from '@apex/driver-wda';\nexport const x = wda;\n"],
  ['a transport imports the runtime', 'libs/faces/rest', "import * as runtime from '@apex/runtime';\nexport const x = runtime;\n"],
  ['a transport imports tasks', 'libs/faces/rest', "import * as tasks from '@apex/tasks';\nexport const x = tasks;\n"],
  ['a transport imports the hub', 'libs/faces/mcp', "import * as hub from '@apex/hub';\nexport const x = hub;\n"],
  ['a driver imports a core lib other than the port', 'libs/drivers/wda', "import * as p from '@apex/perception';\nexport const x = p;\n"],
  ['the virtual device imports the core', 'libs/virtual-device', "import * as hub from '@apex/hub';\nexport const x = hub;\n"],
];

const banned: Fixture[] = [
  ['an app imports appium', 'apps/cli', "import * as appium from 'appium';\nexport const x = appium;\n"],
  ['a core lib imports webdriverio', 'libs/core/hub', "import * as wdio from 'webdriverio';\nexport const x = wdio;\n"],
  ['a transport imports the xcuitest driver', 'libs/faces/mcp', "import * as x from 'appium-xcuitest-driver';\nexport const y = x;\n"],
];

const allowed: Fixture[] = [
  ['a driver imports the port', 'libs/drivers/wda', "import { centerOf } from '@apex/port';\nexport const x = centerOf;\n"],
  ['the runtime imports a driver', 'libs/runtime', "import * as wda from '@apex/driver-wda';\nexport const x = wda;\n"],
  ['an app imports a transport', 'apps/cli', "import * as rest from '@apex/rest';\nexport const x = rest;\n"],
  ['a transport imports the capability catalog', 'libs/faces/rest', "import { runOperation } from '@apex/capability';\nexport const x = runOperation;\n"],
  ['a core lib imports the errors', 'libs/core/capability', "import { ApexError } from '@apex/errors';\nexport const x = ApexError;\n"],
];

function bannedPackage(name: string): string {
  const fixture = banned.find(([n]) => n === name);
  const match = fixture?.[2].match(/from '([^']+)'/);
  if (!match) throw new Error(`no import in fixture ${name}`);
  return match[1];
}

function isInstalled(pkg: string): boolean {
  try {
    require.resolve(`${pkg}/package.json`, { paths: [workspaceRoot] });
    return true;
  } catch {
    return false;
  }
}

/** Boundary-rule messages per fixture, from one ESLint run over all of them. */
const boundaryErrors = new Map<string, string[]>();

beforeAll(() => {
  const fixtures = [...rejected, ...banned, ...allowed];
  const input = fixtures.map(([, projectDir, source]) => ({
    filePath: path.join(workspaceRoot, projectDir, 'src', '__boundary_fixture__.ts'),
    source,
  }));
  const output = execFileSync(process.execPath, [path.join(__dirname, 'lint-fixtures.mjs')], {
    cwd: workspaceRoot,
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  const results = JSON.parse(output) as { ruleId: string | null; message: string }[][];
  fixtures.forEach(([name], i) => {
    boundaryErrors.set(
      name,
      results[i]
        .filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === 'no-restricted-imports')
        .map((m) => m.message),
    );
  });
}, 120_000);

describe('layer boundaries', () => {
  it.each(rejected)('rejects: %s', (name) => {
    const errors = boundaryErrors.get(name);
    expect(errors).toHaveLength(1);
    expect(errors?.[0]).toMatch(/A project tagged with "type:\w+" can only depend on libs tagged with/);
  });

  it.each(banned)('bans driver packages: %s', (name) => {
    const errors = boundaryErrors.get(name) ?? [];
    // ESLint's no-restricted-imports catches the import whether or not the package is installed …
    expect(errors).toContain('\'' + bannedPackage(name) + '\' import is restricted from being used. Only the driver layer may use driver packages.');
    // … and Nx's bannedExternalImports does too, for packages installed in this workspace.
    if (isInstalled(bannedPackage(name))) {
      expect(errors.some((e) => /is not allowed to import/.test(e))).toBe(true);
    }
  });

  it.each(allowed)('allows: %s', (name) => {
    expect(boundaryErrors.get(name)).toEqual([]);
  });
});
