import { randomUUID } from 'node:crypto';

/*
 * What the iPhone writes for a person debugging it: the unified log (os_log) and crash reports. Both are read
 * the way a Mac reads a simulator's: the log as `log show --style ndjson` prints it (one JSON object a line),
 * crash reports as the `.ips` files of DiagnosticReports (a JSON header line, then a JSON body).
 */

/** os_log's message types, as `messageType` names them. */
export type OsLogType = 'Default' | 'Info' | 'Debug' | 'Error' | 'Fault';

export interface OsLogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  pid: number;
  /** The process's executable name (`SpringBoard`, `MobileNotes`). */
  process: string;
  subsystem: string;
  category: string;
  type: OsLogType;
  message: string;
  seq: number;
}

/** Lines the phone keeps (older ones leave first). */
export const OS_LOG_CAPACITY = 5000;
/** Crash reports the phone keeps (as DiagnosticReports rotates them). */
export const CRASH_REPORT_CAPACITY = 50;

/** `2026-12-06 10:15:00.123000+0000`: the log's timestamp (microseconds, zone offset; the phone is on UTC). */
function logStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}000+0000`;
}

/** The unified log: a ring of os_log entries. */
export class OsLog {
  private readonly entries: OsLogEntry[] = [];
  private nextSeq = 1;

  constructor(private readonly now: () => number = Date.now) {}

  add(entry: Omit<OsLogEntry, 'time' | 'seq'>): void {
    this.entries.push({ ...entry, time: this.now(), seq: this.nextSeq++ });
    // Trim in steps: amortized O(1) a line under a flood.
    if (this.entries.length > OS_LOG_CAPACITY * 1.25) this.entries.splice(0, this.entries.length - OS_LOG_CAPACITY);
  }

  /** The kept entries at or after `sinceMs`, oldest first. */
  read(sinceMs?: number): OsLogEntry[] {
    const kept = this.entries.slice(-OS_LOG_CAPACITY);
    return sinceMs === undefined ? kept : kept.filter((e) => e.time >= sinceMs);
  }

  /** One line of `log show --style ndjson` for the entry (the fields Apple's `log` prints, in its order). */
  static ndjson(e: OsLogEntry, bootUUID: string): string {
    return JSON.stringify({
      traceID: e.seq * 4096,
      eventMessage: e.message,
      eventType: 'logEvent',
      source: null,
      formatString: e.message,
      activityIdentifier: 0,
      subsystem: e.subsystem,
      category: e.category,
      threadID: e.pid * 16 + 1,
      senderImageUUID: '00000000-0000-0000-0000-000000000000',
      backtrace: { frames: [] },
      bootUUID,
      processImagePath: e.process === 'SpringBoard' ? '/System/Library/CoreServices/SpringBoard.app/SpringBoard' : `/Applications/${e.process}.app/${e.process}`,
      timestamp: logStamp(e.time),
      senderImagePath: `/usr/lib/${e.subsystem.split('.').pop() ?? 'libsystem'}.dylib`,
      machTimestamp: e.time * 24_000,
      messageType: e.type,
      processImageUUID: '00000000-0000-0000-0000-000000000000',
      processID: e.pid,
      senderProgramCounter: 0,
      parentActivityIdentifier: 0,
      timezoneName: '',
    });
  }
}

/** An uncaught Objective-C exception, as the app's last words. */
export interface ObjcException {
  name: string;
  reason: string;
  /** The app's own frames (innermost first), as `symbol` names; the runtime's frames are added around them. */
  frames: readonly string[];
}

export interface CrashFile {
  /** `MobileNotes-2026-12-06-101500.ips` */
  name: string;
  text: string;
}

export interface CrashedProcess {
  bundleId: string;
  /** The executable's name. */
  process: string;
  pid: number;
  appVersion: string;
}

/** `2026-12-06 10:15:00.00 +0000`: the .ips header's timestamp. */
function ipsStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(Math.floor(d.getUTCMilliseconds() / 10))} +0000`;
}

/** The crash reports in DiagnosticReports, newest last. */
export class CrashReports {
  private readonly files: CrashFile[] = [];
  private written = 0;

  constructor(
    private readonly osVersion: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Writes the report of an uncaught exception (bug_type 309: EXC_CRASH / SIGABRT, the exception's reason in
   * `exceptionReason`, the crashed thread's frames from abort() down to the app's own) and returns it.
   */
  add(app: CrashedProcess, exception: ObjcException): CrashFile {
    const time = this.now();
    const incident = randomUUID().toUpperCase();
    const header = {
      app_name: app.process,
      timestamp: ipsStamp(time),
      app_version: app.appVersion,
      slice_uuid: randomUUID(),
      build_version: '1',
      platform: 7,
      bundleID: app.bundleId,
      share_with_app_devs: 0,
      is_first_party: app.bundleId.startsWith('com.apple.') ? 1 : 0,
      bug_type: '309',
      os_version: `iPhone OS ${this.osVersion} (21F79)`,
      roots_installed: 0,
      name: app.process,
      incident_id: incident,
    };
    const images = [
      { source: 'P', arch: 'arm64', name: 'libsystem_kernel.dylib', path: '/usr/lib/system/libsystem_kernel.dylib' },
      { source: 'P', arch: 'arm64', name: 'libsystem_c.dylib', path: '/usr/lib/system/libsystem_c.dylib' },
      { source: 'P', arch: 'arm64', name: 'libc++abi.dylib', path: '/usr/lib/libc++abi.dylib' },
      { source: 'P', arch: 'arm64', name: 'libobjc.A.dylib', path: '/usr/lib/libobjc.A.dylib' },
      { source: 'P', arch: 'arm64', name: 'CoreFoundation', path: '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation' },
      { source: 'P', arch: 'arm64', name: app.process, path: `/Applications/${app.process}.app/${app.process}` },
    ];
    const frame = (imageIndex: number, symbol: string, symbolLocation: number) => ({ imageOffset: 4096 + symbolLocation, symbol, symbolLocation, imageIndex });
    const frames = [
      frame(0, '__pthread_kill', 8),
      frame(1, 'abort', 180),
      frame(2, 'abort_message', 132),
      frame(2, 'demangling_terminate_handler()', 348),
      frame(3, '_objc_terminate()', 144),
      frame(2, 'std::__terminate(void (*)())', 16),
      frame(4, '__exceptionPreprocess', 232),
      frame(3, 'objc_exception_throw', 60),
      ...exception.frames.map((symbol, i) => frame(5, symbol, 20 + i * 16)),
      frame(5, 'main', 24),
    ];
    const body = {
      uptime: 1000,
      procRole: 'Foreground',
      version: 2,
      userID: 501,
      deployVersion: 210,
      modelCode: 'iPhone15,4',
      coalitionID: 500 + app.pid,
      osVersion: { train: `iPhone OS ${this.osVersion}`, build: '21F79', releaseType: 'User' },
      captureTime: ipsStamp(time),
      incident,
      pid: app.pid,
      procName: app.process,
      procPath: `/Applications/${app.process}.app/${app.process}`,
      bundleInfo: { CFBundleShortVersionString: app.appVersion, CFBundleVersion: '1', CFBundleIdentifier: app.bundleId },
      parentProc: 'launchd',
      parentPid: 1,
      exception: { codes: '0x0000000000000000, 0x0000000000000000', rawCodes: [0, 0], type: 'EXC_CRASH', signal: 'SIGABRT' },
      asi: { 'libsystem_c.dylib': ['abort() called'] },
      exceptionReason: {
        arguments: [],
        format_string: exception.reason,
        composed_message: `*** Terminating app due to uncaught exception '${exception.name}', reason: '${exception.reason}'`,
        type: 'objc-exception',
        name: exception.name,
        className: 'NSException',
      },
      termination: { flags: 0, code: 6, namespace: 'SIGNAL', indicator: 'Abort trap: 6', byProc: app.process, byPid: app.pid },
      faultingThread: 0,
      threads: [{ triggered: true, id: app.pid * 16 + 1, queue: 'com.apple.main-thread', frames }],
      usedImages: images,
    };
    const d = new Date(time);
    const p = (n: number) => String(n).padStart(2, '0');
    const name = `${app.process}-${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${this.written ? `-${this.written}` : ''}.ips`;
    this.written += 1;
    const file = { name, text: `${JSON.stringify(header)}\n${JSON.stringify(body, null, 2)}` };
    this.files.push(file);
    if (this.files.length > CRASH_REPORT_CAPACITY) this.files.shift();
    return file;
  }

  list(): CrashFile[] {
    return [...this.files];
  }
}
