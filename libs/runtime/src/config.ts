import { readFile } from 'node:fs/promises';
import { ApexError, fieldIssuesFrom } from '@apex/errors';
import { resolveToolsets } from '@apex/capability';
import { platformOf } from '@apex/driver-appium';
import { MIN_RECORDINGS_MAX_BYTES } from '@apex/recording';
import { plannerConfigSchema } from '@apex/tasks';
import { z } from 'zod';

/**
 * The configuration file: `{"devices":[…], "dataDir"?: "…"}`. Each device entry is discriminated by
 * `driver`, so another driver adds its own entry shape to DEVICE_CONFIG_SCHEMAS without touching the others.
 */

const DeviceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit');

const TimeoutsSchema = z
  .object({
    /** One action (tap, swipe, …). Default: TIMEOUT_DEFAULTS.actionMs of @apex/hub. */
    actionMs: z.number().int().min(100).max(600_000).optional(),
    /** Screenshots and the UI tree (never below actionMs). Default: TIMEOUT_DEFAULTS.slowActionMs. */
    slowActionMs: z.number().int().min(100).max(600_000).optional(),
    /** TCP connect to the device. Default: TIMEOUT_DEFAULTS.connectMs. */
    connectMs: z.number().int().min(100).max(60_000).optional(),
  })
  .strict();

export const WdaDeviceConfigSchema = z
  .object({
    id: DeviceIdSchema,
    name: z.string().min(1).max(100).optional(),
    driver: z.literal('wda'),
    /** The device's automation server, e.g. http://127.0.0.1:8100 */
    url: z.url({ protocol: /^https?$/ }),
    /** The phone's MJPEG screen stream on the automation server's host (its agent serves one on 9100). Off when absent. */
    mjpegPort: z.number().int().min(1).max(65535).optional(),
    /** The stream's full address instead (e.g. through a port forward): http://127.0.0.1:9100 */
    mjpegUrl: z.url({ protocol: /^http$/ }).optional(),
    timeouts: TimeoutsSchema.optional(),
    /** Skip the ownership lock: other Apex processes may use this device at the same time. */
    shared: z.boolean().optional(),
    /**
     * The phone is a booted simulator on this Mac with this UDID (`xcrun simctl list devices booted`): installing,
     * resetting, permissions, biometrics, pushes and media go through `xcrun simctl`.
     */
    simulator: z
      .string()
      .regex(/^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/, 'must be a simulator UDID such as 8A1B3C4D-1111-2222-3333-444455556666')
      .optional(),
  })
  .strict()
  .refine((device) => device.mjpegPort === undefined || device.mjpegUrl === undefined, {
    path: ['mjpegUrl'],
    message: 'give mjpegUrl or mjpegPort, not both',
  });

export const AppiumDeviceConfigSchema = z
  .object({
    id: DeviceIdSchema,
    name: z.string().min(1).max(100).optional(),
    driver: z.literal('appium'),
    /** The automation server, e.g. http://127.0.0.1:4723, or a device cloud's hub (https://user:key@hub.example/wd/hub) */
    serverUrl: z.url({ protocol: /^https?$/ }),
    /** The environment variable holding the user name of a device cloud (or use the URL's userinfo). */
    usernameEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** The environment variable holding the access key of a device cloud. */
    keyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** Session capabilities; `platformName` ("iOS" or "Android") is required. */
    capabilities: z.record(z.string().min(1), z.unknown()).refine((caps) => platformOf(caps) !== undefined, {
      message: 'must include "platformName": "iOS" or "Android"',
    }),
    /** The phone's MJPEG screen stream (`appium:mjpegServerPort` forwarded, or the agent's stream port). Off when absent. */
    mjpegUrl: z.url({ protocol: /^http$/ }).optional(),
    timeouts: TimeoutsSchema.extend({
      /** Creating a session (the server may first build and start the on-device agent). Default 120 s. */
      sessionStartMs: z.number().int().min(1_000).max(900_000).optional(),
    })
      .strict()
      .optional(),
    /** Skip the ownership lock: other Apex processes may use this device at the same time. */
    shared: z.boolean().optional(),
  })
  .strict();

/** `HOST:PORT` (a name or IPv4 address, or `[IPv6]`), the form adb itself takes. */
const HostPortSchema = z
  .string()
  .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/, 'must be HOST:PORT, e.g. 127.0.0.1:5555')
  .refine((value) => {
    const port = Number(value.slice(value.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }, 'the port must be 1–65535');

/** The adb server Android Studio and the platform tools start, unless `adbServer` says otherwise. */
export const DEFAULT_ADB_SERVER = '127.0.0.1:5037';

export const AdbDeviceConfigSchema = z
  .object({
    id: DeviceIdSchema,
    name: z.string().min(1).max(100).optional(),
    driver: z.literal('adb'),
    /** The phone as the adb server lists it (`adb devices`): `emulator-5554`, a USB serial. */
    serial: z.string().regex(/^[A-Za-z0-9._:[\]-]{1,128}$/, 'must be a serial as `adb devices` lists it').optional(),
    /**
     * A phone's adbd over TCP (HOST:PORT, `adb tcpip` / wireless debugging): Apex speaks to it directly, with its
     * own key (`adb/adbkey` in the data directory); with `adbServer` as well, through that server instead.
     */
    host: HostPortSchema.optional(),
    /** The adb server (HOST:PORT); default 127.0.0.1:5037 for a `serial`. */
    adbServer: HostPortSchema.optional(),
    timeouts: TimeoutsSchema.optional(),
    /** Skip the ownership lock: other Apex processes may use this device at the same time. */
    shared: z.boolean().optional(),
  })
  .strict()
  .refine((device) => (device.serial === undefined) !== (device.host === undefined), {
    path: ['serial'],
    message: 'give serial (a phone the adb server lists) or host (HOST:PORT of its adbd), not both',
  });

/** A Selenium Grid 4 hub (a device lab): one device per slot whose stereotype matches `match`. */
export const GridConfigSchema = z
  .object({
    id: DeviceIdSchema,
    /** The hub, e.g. http://127.0.0.1:4444 (a base path such as /wd/hub is kept). */
    url: z.url({ protocol: /^https?$/ }),
    /** The environment variable holding the user name of a device cloud (or use the URL's userinfo). */
    usernameEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** The environment variable holding the access key of a device cloud. */
    keyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** Only slots whose stereotype has these values (strings compared case-insensitively), e.g. {"platformName": "iOS"}. */
    match: z.record(z.string().min(1), z.unknown()).optional(),
    /** Added to each slot's stereotype when a session is created (e.g. "appium:newCommandTimeout"). */
    capabilities: z.record(z.string().min(1), z.unknown()).optional(),
    /** How often the hub's status is read again (default 10 s). */
    refreshMs: z.number().int().min(500).max(600_000).optional(),
    /** A slot missing from this many reads in a row is removed (until then it is listed offline). Default 6. */
    forgetAfterMisses: z.number().int().min(1).max(1_000).optional(),
    timeouts: TimeoutsSchema.extend({
      /** Creating a session through the hub (it may queue the request). Default 120 s. */
      sessionStartMs: z.number().int().min(1_000).max(900_000).optional(),
    })
      .strict()
      .optional(),
  })
  .strict();

export const DeviceConfigSchema = z.discriminatedUnion('driver', [WdaDeviceConfigSchema, AppiumDeviceConfigSchema, AdbDeviceConfigSchema]);

/** The Mac's tool chain for iPhones found on their own (simulators, USB iPhones). */
export const IosHostConfigSchema = z
  .object({
    /** The Apple development team that signs the automation agent for a real iPhone (Xcode → Settings → Accounts). */
    teamId: z.string().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character team id').optional(),
    /** The automation agent's Xcode project (`…/WebDriverAgent.xcodeproj`); default: the `appium-webdriveragent` package's. */
    agentProject: z.string().min(1).optional(),
    /** go-ios' `ios` binary (default: `ios` on PATH, then the `go-ios` package's). */
    goIos: z.string().min(1).optional(),
  })
  .strict();

export const ApexConfigSchema = z
  .object({
    devices: z.array(DeviceConfigSchema).default([]),
    /** Look for phones on this machine (simulators, USB iPhones, the adb server's phones); default: when no device is listed. */
    discover: z.boolean().optional(),
    /** iPhones and simulators found on their own. */
    ios: IosHostConfigSchema.optional(),
    /** Android phones found on their own: the adb server to ask (HOST:PORT, default 127.0.0.1:5037). */
    android: z.object({ adbServer: HostPortSchema.optional() }).strict().optional(),
    /** Device labs behind Selenium Grid 4 hubs, whose phones are discovered and kept up to date. */
    grids: z.array(GridConfigSchema).default([]),
    /** The device a call without `device` acts on when several exist (else such a call must name one). */
    defaultDevice: DeviceIdSchema.optional(),
    /**
     * Ownership of phones and tasks: a process renews its leases every `renewMs` (default 5 s); one not renewed
     * for `leaseMs` (default 15 s) is gone, and its phones and tasks are taken over by another.
     */
    cluster: z
      .object({
        leaseMs: z.number().int().min(200).max(600_000).optional(),
        renewMs: z.number().int().min(50).max(300_000).optional(),
        /**
         * With a shared PostgreSQL store: list_devices also lists the phones other live nodes hold, each with its
         * `node`, and operations on them are forwarded to that node's REST API (default false: listed `busy`).
         */
        listAll: z.boolean().optional(),
        /**
         * The bearer token sent to the other nodes when forwarding (the token they serve with, their APEX_TOKEN).
         * APEX_CLUSTER_TOKEN wins over it; without either, this node's APEX_TOKEN is sent. Best in the environment.
         */
        token: z.string().min(1).max(4_096).optional(),
        /** The address other nodes reach this node's REST API at (default: the address `apex serve` listens on). */
        url: z.url({ protocol: /^https?$/ }).optional(),
        /** Longest a forwarded operation may take before `unavailable` (default 60 s; wait_for adds its own timeout). */
        forwardTimeoutMs: z.number().int().min(100).max(600_000).optional(),
      })
      .strict()
      .optional(),
    /** Where locks and data live; APEX_DATA_DIR, when set, wins over it (default ~/.apex). */
    dataDir: z.string().min(1).optional(),
    /** The developer's loop: `allowedRoots` are the folders install_app and add_media may read (default: the working directory and the data directory). */
    apps: z
      .object({ allowedRoots: z.array(z.string().min(1).max(4_096)).min(1).max(64).optional() })
      .strict()
      .optional(),
    /** Agent tasks: `{"planners": {"default": "openai", "openai": {"model": "…", "baseURL": "…"}}}`; keys best in the environment. */
    tasks: z
      .object({
        planners: plannerConfigSchema.optional(),
        /** Store and show the text a task typed as typed; by default steps keep only its length (it may be a password). */
        keepTypedText: z.boolean().optional(),
        /**
         * Where tasks live: SQLite in the data directory (default), or `{"postgres": "postgres://…"}`, one queue
         * for several Apex processes (APEX_DATABASE_URL, when set, wins; best there: the URL may hold a password).
         */
        store: z
          .object({ postgres: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').max(2_000) })
          .strict()
          .optional(),
        /** Most tasks waiting per device before start_task answers device_busy (default 50). */
        maxQueuedPerDevice: z.number().int().min(1).max(10_000).optional(),
        /** Finished tasks (steps, screenshots) are deleted after `maxAgeDays` (default 30) or beyond the `maxFinished` newest (default 1000). */
        retention: z
          .object({
            maxAgeDays: z.number().positive().max(3_650).optional(),
            maxFinished: z.number().int().min(1).max(1_000_000).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    /** The MCP face: `{"toolsets": ["default", "apps"]}`; `--toolsets` and APEX_TOOLSETS win over it. */
    mcp: z
      .object({
        toolsets: z
          .array(z.string().max(100))
          .max(50)
          .superRefine((names, ctx) => {
            try {
              resolveToolsets(names);
            } catch (error) {
              ctx.addIssue({ code: 'custom', message: error instanceof ApexError ? error.message : String(error) });
            }
          })
          .optional(),
      })
      .strict()
      .optional(),
    /** Screen recordings: `maxBytes` all of them may take on disk, the oldest removed beyond it (default 2 GiB). */
    recordings: z
      .object({ maxBytes: z.number().int().min(MIN_RECORDINGS_MAX_BYTES).max(Number.MAX_SAFE_INTEGER).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    // A cluster node with listAll may hold no phone of its own: it answers for the phones of the others.
    if (config.devices.length === 0 && config.grids.length === 0 && config.discover !== true && config.cluster?.listAll !== true) {
      ctx.addIssue({ code: 'custom', path: ['devices'], message: 'must list at least one device (or a grid, or say "discover": true, or "cluster": {"listAll": true})' });
    }
    const gridIds = new Set<string>();
    config.grids.forEach((grid, index) => {
      if (gridIds.has(grid.id)) ctx.addIssue({ code: 'custom', path: ['grids', index, 'id'], message: `duplicate id "${grid.id}"` });
      gridIds.add(grid.id);
    });
    const seen = new Set<string>();
    config.devices.forEach((device, index) => {
      if (seen.has(device.id)) ctx.addIssue({ code: 'custom', path: ['devices', index, 'id'], message: `duplicate id "${device.id}"` });
      seen.add(device.id);
    });
    // A grid's phones are known only once it is read: a default among them is checked when a call needs it.
    if (config.defaultDevice !== undefined && config.grids.length === 0 && !seen.has(config.defaultDevice)) {
      ctx.addIssue({ code: 'custom', path: ['defaultDevice'], message: `"${config.defaultDevice}" is not one of the devices (${[...seen].join(', ')})` });
    }
  });

export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;
export type WdaDeviceConfig = z.infer<typeof WdaDeviceConfigSchema>;
export type AppiumDeviceConfig = z.infer<typeof AppiumDeviceConfigSchema>;
export type AdbDeviceConfig = z.infer<typeof AdbDeviceConfigSchema>;
export type GridConfig = z.infer<typeof GridConfigSchema>;
export type IosHostConfig = z.infer<typeof IosHostConfigSchema>;
export type ApexConfig = z.infer<typeof ApexConfigSchema>;

function configError(file: string, message: string, cause?: unknown): ApexError {
  return new ApexError('invalid_argument', `Configuration file ${file}: ${message}`, {
    hint: 'Fix the file, or start without a configuration to use the virtual phones.',
    cause,
  });
}

/** Validates a parsed configuration; every problem is reported by its path (e.g. `devices.0.url: Invalid URL`). */
export function parseConfig(json: unknown, file = 'configuration'): ApexConfig {
  const result = ApexConfigSchema.safeParse(json);
  if (result.success) return result.data;
  const issues = fieldIssuesFrom(result.error.issues);
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  throw new ApexError('invalid_argument', `Invalid configuration in ${file}: ${summary}`, {
    issues,
    hint: 'Fix the listed fields and try again.',
  });
}

/** Reads and validates a JSON configuration file. */
export async function loadConfig(file: string): Promise<ApexConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw configError(file, code === 'ENOENT' ? 'the file does not exist.' : 'the file cannot be read.', error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw configError(file, `not valid JSON (${error instanceof Error ? error.message : String(error)}).`, error);
  }
  return parseConfig(json, file);
}
