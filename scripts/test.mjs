// `npm test`: everything CI runs, in order, stopping at the first failure.
// Prints one closing line "tests: N passed, N failed" counted from the runners' JSON reports.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.tmp/reports');
mkdirSync(reports, { recursive: true });
const ci = process.env.CI === 'true';

if (ci) {
  const missing = [];
  if (!process.env.TEST_DATABASE_URL) missing.push('TEST_DATABASE_URL');
  if (!process.env.TEST_REDIS_URL) missing.push('TEST_REDIS_URL');
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'))
    missing.push('Chromium at /usr/bin/chromium');
  if (missing.length > 0) {
    console.error(`CI=true needs: ${missing.join(', ')}`);
    process.exit(1);
  }
}

const counts = { passed: 0, failed: 0, skipped: 0 };

function run(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  console.log(
    `  ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return result.status === 0;
}

function tally(file, pick) {
  if (!existsSync(file)) return;
  const r = pick(JSON.parse(readFileSync(file, 'utf8')));
  counts.passed += r.passed;
  counts.failed += r.failed;
  counts.skipped += r.skipped;
}

function finish(ok) {
  console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(ok && counts.failed === 0 ? 0 : 1);
}

const npx = (args, env) => ['npx', ['--no-install', ...args], env];

const unitReport = path.join(reports, 'vitest.json');
const e2eReport = path.join(reports, 'playwright.json');
rmSync(unitReport, { force: true });
rmSync(e2eReport, { force: true });
const vitestCounts = (j) => ({
  passed: j.numPassedTests ?? 0,
  failed: j.numFailedTests ?? 0,
  skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0),
});
const playwrightCounts = (j) => ({
  passed: j.stats?.expected ?? 0,
  failed: (j.stats?.unexpected ?? 0) + (j.stats?.flaky ?? 0),
  skipped: j.stats?.skipped ?? 0,
});
const steps = [
  ['lint and format (biome)', ...npx(['biome', 'ci', '.'])],
  ['typecheck (tsc)', 'npm', ['run', 'typecheck']],
  [
    'unit and integration tests (vitest)',
    ...npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`]),
    [unitReport, vitestCounts],
  ],
  ['build the web app', 'npm', ['run', 'build']],
  [
    'end-to-end tests (playwright, chromium)',
    ...npx(['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }),
    [e2eReport, playwrightCounts],
  ],
];

for (const [title, cmd, args, env, report] of steps) {
  const ok = run(title, cmd, args, env);
  if (report) tally(...report);
  if (!ok) finish(false);
}
finish(true);
