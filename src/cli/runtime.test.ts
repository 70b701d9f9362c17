import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectNode, supported } from '../../bin/runtime.js';
import { machineNode, signpost, startServe, versionOf } from '../server/testing/run-cli.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The machine's Node, and the one the command runs on when started by it: the project's when it is too old. */
const machine = machineNode();
const machineVersion = versionOf(machine);
const project = projectNode() as string;
const expected = supported(machineVersion.slice(1)) ? machineVersion : versionOf(project);

describe('the Node.js Signpost runs on', () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-runtime-'));
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  it('is the project’s own Node 24 or newer for every npm script, this test run included', () => {
    expect(process.versions.node.split('.').map(Number)[0]).toBeGreaterThanOrEqual(24);
    // npm puts node_modules/.bin first on its scripts' PATH; the `node` found there is what every script runs.
    const env = execFileSync('npm', ['run', '--silent', 'env'], { cwd: ROOT, encoding: 'utf8' });
    const scriptPath = /^PATH=(.*)$/m.exec(env)?.[1] ?? '';
    const scriptNode = scriptPath
      .split(path.delimiter)
      .map((folder) => path.join(folder, 'node'))
      .find((file) => fs.existsSync(file));
    expect(scriptNode).toBe(path.join(ROOT, 'node_modules/.bin/node'));
    expect(versionOf(scriptNode as string)).toBe(versionOf(project));
    expect(supported(versionOf(project).slice(1))).toBe(true);
  });

  it('serves on a supported Node when a service starts it with the machine’s, and stops when told to', async () => {
    const server = await startServe(
      { DATA_DIR: data, DATABASE_URL: '', SEED_DEMO: 'false' },
      { node: machine },
    );
    try {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^nodejs_version_info\\{version="${expected}"`, 'm'));
    } finally {
      // SIGTERM reaches the process started (the one a service manager knows), which passes it on: the server
      // shuts down cleanly and the command ends as it does.
      expect(await server.stop()).toBe(0);
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('ends with the command’s own exit code', async () => {
    const run = await signpost(['no-such-command'], { DATA_DIR: data }, { node: machine });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "no-such-command"');
  });

  it('says what to do, rather than loop or fail obscurely, when no supported Node can be found', async () => {
    // The marker the command sets when it runs itself again: seen on an old Node, the project's Node did not help.
    const run = await signpost(['help'], { DATA_DIR: data, SIGNPOST_NODE_REEXEC: '1' }, { node: machine });
    if (expected === machineVersion) {
      // The machine's Node is supported itself: nothing runs again and the command just works.
      expect(run.code).toBe(0);
    } else {
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `Signpost needs Node.js 24.15 or newer; this is ${machineVersion}. ` +
          'Run `npm install` in its folder (it brings Node 24), or install Node.js 24.\n',
      );
    }
  });
});
