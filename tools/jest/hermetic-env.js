// Tests never look for phones on the machine they run on (a developer's adb server on 5037, their simulators):
// `apex serve` / `apex mcp` spawned by a test inherit this. Discovery's own tests set their adb server and
// stand-in tools explicitly.
process.env.APEX_DISCOVER ??= '0';
