// Lints fixture sources with the workspace's real ESLint config, outside Jest (which cannot load an ESM
// config). Reads [{filePath, source}] as JSON on stdin; prints the messages of each as JSON on stdout.
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const fixtures = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { filePath, source } of fixtures) {
  const [result] = await eslint.lintText(source, { filePath });
  results.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(results));
