#!/usr/bin/env node
'use strict';
/*
 * The one stand-in for the Mac's tools that cannot run here (`xcrun`, `xcodebuild`, go-ios' `ios`, libimobiledevice's
 * `idevice_id`, `ideviceinfo` and `iproxy`),
 * installed under each name (see stand-ins.ts). It records every call ({tool, args, usePort: $USE_PORT, stdin})
 * as a JSON line in $APEX_STAND_IN_LOG and answers from the scenario in $APEX_STAND_IN_SCENARIO (which `simctl
 * install`/`uninstall` update), in the real tools' formats. Where each format comes from:
 * - `xcrun simctl list devices booted -j`: the JSON of `simctl list --json` (an object `devices` keyed by runtime
 *   identifier, each an array of {udid, name, state, isAvailable, deviceTypeIdentifier}), as Xcode 15 prints it.
 * - the other `xcrun simctl` verbs: Xcode's `xcrun simctl help <verb>` and the outputs Appium's node-simctl
 *   parses (`subcommands/*.js`; not re-checked on a Mac from here):
 *   - `get_app_container <udid> <bundle id>`: the bundle's path and a newline, exit 0; for an app that is not
 *     installed, exit 2 and on stderr "An error was encountered processing the command (domain=NSPOSIXErrorDomain,
 *     code=2):" and the reason (node-simctl's getAppContainer throws on it).
 *   - `install <udid> <path.app>` (reads the bundle id from its Info.plist), `uninstall`, `privacy`, `addmedia`,
 *     `spawn <udid> notifyutil …`: silent, exit 0.
 *   - `terminate` of an app that does not run: exit 3, "An error was encountered processing the command
 *     (domain=com.apple.CoreSimulator.SimError, code=164): found nothing to terminate".
 *   - `push <udid> <bundle id> -`: reads the APNs payload from stdin, prints "Notification sent to '<bundle id>'".
 *   - `spawn <udid> log show --style ndjson [--start "YYYY-MM-DD HH:MM:SS" | --last 1h]`: the scenario's
 *     `logLines`, one JSON object a line, as `log show --style ndjson` prints the unified log (exit 0).
 * - `xcodebuild -version`: "Xcode 15.4" / "Build version 15F31d" (man xcodebuild, -version).
 * - `xcodebuild build-for-testing … -derivedDataPath D`: writes D/Build/Products/<name>.xctestrun and ends with
 *   "** TEST BUILD SUCCEEDED **" (exit 0), or prints the scenario's error lines and "** TEST BUILD FAILED **" (65).
 *   With `xcode.holdBuild` (a socket path) it first connects there and builds once the test writes to it.
 * - `xcodebuild test-without-building`: "Testing started", then the agent's own line
 *   "ServerURLHere->http://127.0.0.1:<USE_PORT><-ServerURLHere" once it listens, and runs until killed; the
 *   "agent" is a TCP forward from 127.0.0.1:<USE_PORT> to the scenario's `agentUrl` (a virtual iPhone).
 * - `ios list --details`: go-ios' JSON `{"deviceList":[{"Udid","ProductName","ProductType","ProductVersion",
 *   "ConnectionType"}]}`; `ios forward <host> <device> --udid=U`: go-ios' JSON log line, then forwards
 *   127.0.0.1:<host> to the scenario's `deviceUrl` (what the USB tunnel would reach) until killed.
 * - `ios apps --list --udid=U` and `ios install --path=P --udid=U`: go-ios main.go (`printInstalledApps` prints
 *   "BUNDLE_ID NAME VERSION" per user app; `installApp` logs "installing" and sends the build). go-ios logs with
 *   log/slog's JSON handler on stderr (cli_setup.go): {"time","level":"INFO"|"ERROR","msg",…attrs}, and a
 *   failure is an ERROR line and exit 1 (`exitIfError`). The bundle id of a `.app` comes from its Info.plist.
 *   The phone's apps are the scenario's `usbInstalled` (bundle id → name); `usbInstallError` fails the install.
 * - libimobiledevice, the same `usb` devices as go-ios sees (USB ones only): `idevice_id -l` prints one UDID a line
 *   (tools/idevice_id.c; without the USB service "ERROR: Unable to retrieve device list!" on stderr, exit 255);
 *   `ideviceinfo -u UDID -k KEY` prints the value alone (tools/ideviceinfo.c; an unknown UDID: "ERROR: Device UDID
 *   not found!", exit 255); `iproxy LOCAL:DEVICE -u UDID` (libusbmuxd's tools/iproxy.c) prints "Creating listening
 *   port LOCAL for device port DEVICE", then "waiting for connection", and forwards like `ios forward`.
 * A scenario key left out makes that tool behave as missing or failing (see each branch): without `xcode`, no
 * `xcrun` utility and no `xcodebuild` work, as on a Mac with only the command-line tools or none.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const tool = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const scenarioFile = process.env.APEX_STAND_IN_SCENARIO;
const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
const saveScenario = () => fs.writeFileSync(scenarioFile, JSON.stringify(scenario));

function record(stdin) {
  const call = { tool, args, usePort: process.env.USE_PORT, ...(stdin === undefined ? {} : { stdin }) };
  fs.appendFileSync(process.env.APEX_STAND_IN_LOG, `${JSON.stringify(call)}\n`);
}

function forward(hostPort, targetUrl, onListening) {
  const target = new URL(targetUrl);
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  server.listen(hostPort, '127.0.0.1', onListening);
}

function fail(lines, code, stream = process.stdout) {
  for (const line of lines) stream.write(`${line}\n`);
  process.exit(code);
}

/** simctl's own failure: "An error was encountered processing the command (domain=…, code=…):" on stderr. */
function simctlFail(code, domain, reason) {
  fail([`An error was encountered processing the command (domain=${domain}, code=${code}):`, reason], code === 2 ? 2 : 3, process.stderr);
}

function simctl([verb, udid, ...rest]) {
  const installed = scenario.installed ?? (scenario.installed = {});
  switch (verb) {
    case 'list':
      process.stdout.write(JSON.stringify({ devices: scenario.simulators ?? {} }, null, 2));
      break;
    case 'get_app_container': {
      const app = installed[rest[0]];
      if (!app) simctlFail(2, 'NSPOSIXErrorDomain', 'No such file or directory');
      process.stdout.write(`/Users/dev/Library/Developer/CoreSimulator/Devices/${udid}/data/Containers/Bundle/Application/0C5C5B0E-6D3B-4F0E-9C7B-2B1D1E1A1A1A/${app}\n`);
      break;
    }
    case 'install': {
      const appPath = rest[0];
      const info = fs.readFileSync(path.join(appPath, 'Info.plist'), 'utf8');
      const id = /<key>CFBundleIdentifier<\/key>\s*<string>([^<]+)<\/string>/.exec(info);
      if (!id) simctlFail(22, 'IXUserPresentableErrorDomain', `Failed to get bundle ID from ${appPath}`);
      installed[id[1]] = path.basename(appPath);
      saveScenario();
      break;
    }
    case 'uninstall':
      delete installed[rest[0]];
      saveScenario();
      break;
    case 'terminate':
      simctlFail(164, 'com.apple.CoreSimulator.SimError', 'found nothing to terminate');
      break;
    case 'push':
      process.stdout.write(`Notification sent to '${rest[0]}'\n`);
      break;
    case 'spawn':
      // `spawn <udid> log show --style ndjson …`: the scenario's lines, one JSON object each (Apple's `log` ndjson).
      if (rest[0] === 'log') for (const line of scenario.logLines ?? []) process.stdout.write(`${line}\n`);
      break;
    case 'privacy':
    case 'addmedia':
      break;
    default:
      fail([`Unrecognized subcommand: ${verb}`], 64, process.stderr);
  }
}

/** go-ios' slog JSON line on stderr. */
function slogLine(level, msg, attrs = {}) {
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...attrs });
}

function goIosApps(verb, rest) {
  const option = (name) => rest.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const udid = option('udid');
  if (!(scenario.usb ?? []).some((d) => d.Udid === udid)) fail([slogLine('ERROR', 'Device not found', { err: `device with udid ${udid} not found` })], 1, process.stderr);
  const installed = scenario.usbInstalled ?? (scenario.usbInstalled = {});
  if (verb === 'apps') {
    for (const [id, name] of Object.entries(installed)) process.stdout.write(`${id} ${name} 1.0\n`);
    return;
  }
  const appPath = option('path');
  process.stderr.write(`${slogLine('INFO', 'installing', { appPath, device: udid })}\n`);
  if (scenario.usbInstallError) fail([slogLine('ERROR', 'failed writing', { err: scenario.usbInstallError })], 1, process.stderr);
  let info;
  try {
    info = fs.readFileSync(path.join(appPath, 'Info.plist'), 'utf8');
  } catch (error) {
    fail([slogLine('ERROR', 'failed writing', { err: String(error.message) })], 1, process.stderr);
  }
  const id = /<key>CFBundleIdentifier<\/key>\s*<string>([^<]+)<\/string>/.exec(info);
  const name = /<key>CFBundleName<\/key>\s*<string>([^<]+)<\/string>/.exec(info);
  if (!id) fail([slogLine('ERROR', 'failed writing', { err: 'no bundle identifier' })], 1, process.stderr);
  installed[id[1]] = name ? name[1] : path.basename(appPath, '.app');
  saveScenario();
}

function answer() {
  const xcode = scenario.xcode;
  if (tool === 'xcrun') {
    if (!xcode) fail([`xcrun: error: unable to find utility "${args[0]}", not a developer tool or in PATH`], 72);
    if (args[0] !== 'simctl') fail([`xcrun: error: unable to find utility "${args[0]}", not a developer tool or in PATH`], 72, process.stderr);
    simctl(args.slice(1));
  } else if (tool === 'xcodebuild') {
    if (!xcode) fail(["xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory '/Library/Developer/CommandLineTools' is a command line tools instance"], 1);
    const action = args[0];
    if (action === '-version') {
      process.stdout.write(`Xcode ${xcode.version}\nBuild version ${xcode.build}\n`);
    } else if (action === 'build-for-testing') {
      const build = () => {
        if (xcode.buildErrors) fail([...xcode.buildErrors, '', '** TEST BUILD FAILED **'], 65);
        const derived = args[args.indexOf('-derivedDataPath') + 1];
        const products = path.join(derived, 'Build', 'Products');
        fs.mkdirSync(products, { recursive: true });
        fs.writeFileSync(path.join(products, 'WebDriverAgentRunner_iphoneos17.5-arm64.xctestrun'), '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict/></plist>\n');
        process.stdout.write('** TEST BUILD SUCCEEDED **\n');
      };
      // A held build (the test's `holdBuilds`) says it started on the hold socket and goes on when the test answers.
      if (xcode.holdBuild) net.connect(xcode.holdBuild).once('data', build).once('error', build);
      else build();
    } else if (action === 'test-without-building') {
      process.stdout.write('Testing started\n');
      if (xcode.testErrors) fail([...xcode.testErrors, '', '** TEST EXECUTE FAILED **'], 65);
      const port = Number(process.env.USE_PORT ?? 8100);
      // On a simulator the agent listens on the host; on an iPhone it listens on the phone (reached by `ios forward`).
      if (scenario.agentUrl) forward(port, scenario.agentUrl, () => process.stdout.write(`ServerURLHere->http://127.0.0.1:${port}<-ServerURLHere\n`));
      else process.stdout.write(`ServerURLHere->http://192.168.1.23:${port}<-ServerURLHere\n`);
      setInterval(() => undefined, 1 << 30);
    } else {
      fail([`xcodebuild: error: the stand-in does not know "${action}"`], 64);
    }
  } else if (tool === 'ios') {
    if (args[0] === 'list') {
      if (!scenario.usb) fail(['{"level":"fatal","msg":"failed getting device list","err":"dial unix /var/run/usbmuxd: connect: no such file or directory"}'], 1);
      process.stdout.write(`${JSON.stringify({ deviceList: scenario.usb })}\n`);
    } else if (args[0] === 'forward') {
      const [hostPort, devicePort] = args.slice(1, 3).map(Number);
      if (!scenario.deviceUrl) fail(['{"level":"fatal","msg":"failed to forward port","err":"device not found"}'], 1);
      forward(hostPort, scenario.deviceUrl, () =>
        process.stderr.write(`{"level":"info","msg":"Start listening on port ${hostPort} forwarding to port ${devicePort} on device","time":"${new Date().toISOString()}"}\n`),
      );
    } else if (args[0] === 'apps' || args[0] === 'install') {
      goIosApps(args[0], args.slice(1));
    } else {
      fail([`{"level":"fatal","msg":"the stand-in does not know ${args[0]}"}`], 1);
    }
  } else if (tool === 'idevice_id' || tool === 'ideviceinfo' || tool === 'iproxy') {
    libimobiledevice();
  } else {
    fail([`${tool}: the stand-in does not know this tool`], 127);
  }
}

/** libimobiledevice's view of the same USB service as go-ios' (the scenario's `usb`); formats in the header. */
function libimobiledevice() {
  const usb = scenario.usb;
  if (tool === 'idevice_id') {
    if (!usb) fail(['ERROR: Unable to retrieve device list!'], 255, process.stderr);
    for (const device of usb) if (device.ConnectionType !== 'Network') process.stdout.write(`${device.Udid}\n`);
  } else if (tool === 'ideviceinfo') {
    const udid = args[args.indexOf('-u') + 1];
    const key = args[args.indexOf('-k') + 1];
    const device = (usb ?? []).find((d) => d.Udid === udid);
    if (!device) fail([`ERROR: Device ${udid} not found!`], 255);
    const value = key === 'DeviceName' ? (device.DeviceName ?? 'iPhone') : device[key];
    if (value !== undefined) process.stdout.write(`${value}\n`);
  } else {
    const [hostPort, devicePort] = args[0].split(':').map(Number);
    process.stdout.write(`Creating listening port ${hostPort} for device port ${devicePort}\n`);
    // What the USB tunnel reaches; without it, each connection is dropped (the device cannot be reached).
    forward(hostPort, scenario.deviceUrl ?? 'http://127.0.0.1:1', () => process.stdout.write('waiting for connection\n'));
  }
}

// `simctl push <udid> <bundle id> -` reads its payload from stdin: record it with the call.
if (tool === 'xcrun' && args[0] === 'simctl' && args[1] === 'push' && args[args.length - 1] === '-') {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (input += chunk));
  process.stdin.on('end', () => {
    record(input);
    answer();
  });
} else {
  record();
  answer();
}
