#!/usr/bin/env node
'use strict';
/*
 * One stand-in for the Mac's tools that cannot run here (`xcrun`, `xcodebuild`, go-ios' `ios`, `iproxy`),
 * installed under each name (see stand-ins.ts). It records every call (name, arguments, USE_PORT) as a JSON line
 * in $APEX_STAND_IN_LOG and answers from the scenario in $APEX_STAND_IN_SCENARIO, in the real tools' formats:
 * - `xcrun simctl list devices booted -j`: the JSON of `simctl list --json` (an object `devices` keyed by runtime
 *   identifier, each an array of {udid, name, state, isAvailable, deviceTypeIdentifier}), as Xcode 15 prints it.
 * - `xcodebuild -version`: "Xcode 15.4" / "Build version 15F31d" (man xcodebuild, -version).
 * - `xcodebuild build-for-testing … -derivedDataPath D`: writes D/Build/Products/<name>.xctestrun and ends with
 *   "** TEST BUILD SUCCEEDED **" (exit 0), or prints the scenario's error lines and "** TEST BUILD FAILED **" (65).
 * - `xcodebuild test-without-building`: "Testing started", then the agent's own line
 *   "ServerURLHere->http://127.0.0.1:<USE_PORT><-ServerURLHere" once it listens, and runs until killed; the
 *   "agent" is a TCP forward from 127.0.0.1:<USE_PORT> to the scenario's `agentUrl` (a virtual iPhone).
 * - `ios list --details`: go-ios' JSON `{"deviceList":[{"Udid","ProductName","ProductType","ProductVersion",
 *   "ConnectionType"}]}`; `ios forward <host> <device> --udid=U`: go-ios' JSON log line, then forwards
 *   127.0.0.1:<host> to the scenario's `deviceUrl` (what the USB tunnel would reach) until killed.
 * A scenario key left out makes that tool behave as missing or failing (see each branch).
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const tool = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const scenario = JSON.parse(fs.readFileSync(process.env.APEX_STAND_IN_SCENARIO, 'utf8'));
fs.appendFileSync(process.env.APEX_STAND_IN_LOG, `${JSON.stringify({ tool, args, usePort: process.env.USE_PORT })}\n`);

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

function fail(lines, code) {
  for (const line of lines) process.stdout.write(`${line}\n`);
  process.exit(code);
}

const xcode = scenario.xcode;
if (tool === 'xcrun') {
  if (!xcode) fail(['xcrun: error: unable to find utility "simctl", not a developer tool or in PATH'], 72);
  if (args[1] === 'spawn' && args[3] === 'log') {
    // `simctl spawn UDID log show --style ndjson …`: the scenario's lines, one JSON object each (Apple's `log` ndjson).
    for (const line of scenario.logLines ?? []) process.stdout.write(`${line}\n`);
    process.exit(0);
  }
  process.stdout.write(JSON.stringify({ devices: scenario.simulators ?? {} }, null, 2));
} else if (tool === 'xcodebuild') {
  if (!xcode) fail(["xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory '/Library/Developer/CommandLineTools' is a command line tools instance"], 1);
  const action = args[0];
  if (action === '-version') {
    process.stdout.write(`Xcode ${xcode.version}\nBuild version ${xcode.build}\n`);
  } else if (action === 'build-for-testing') {
    if (xcode.buildErrors) fail([...xcode.buildErrors, '', '** TEST BUILD FAILED **'], 65);
    const derived = args[args.indexOf('-derivedDataPath') + 1];
    const products = path.join(derived, 'Build', 'Products');
    fs.mkdirSync(products, { recursive: true });
    fs.writeFileSync(path.join(products, 'WebDriverAgentRunner_iphoneos17.5-arm64.xctestrun'), '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict/></plist>\n');
    process.stdout.write('** TEST BUILD SUCCEEDED **\n');
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
  } else {
    fail([`{"level":"fatal","msg":"the stand-in does not know ${args[0]}"}`], 1);
  }
} else {
  fail([`${tool}: the stand-in does not know this tool`], 127);
}
