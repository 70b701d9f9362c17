import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectNode, supported } from '../../bin/runtime.js';
import { machineNode, signpost, startServe, versionOf } from '../server/testing/run-cli.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const machine = machineNode();
const machineVersion = versionOf(machine);
const project = projectNode() as string;
/**
 * Whether the machine's Node is too old to run Signpost itself (Debian's 20 on the machines CI runs on): the tests of
 * running again need one. On a machine whose Node is new enough they do not run, and CI fails on tests that did not
 * run, so they cannot pass there without having tested anything.
 */
const machineTooOld = !supported(machineVersion.slice(1));

const ENV = { DATABASE_URL: '', SEED_DEMO: 'false' };

describe('the Node.js Signpost runs on', () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-runtime-'));
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  it('is the project’s own Node 24 or newer for every npm script, this test run included', () => {
    expect(supported(process.versions.node)).toBe(true);
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

  it('runs on the Node that starts it when that one is supported (the one running these tests)', async () => {
    const server = await startServe({ ...ENV, DATA_DIR: data });
    try {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^nodejs_version_info\\{version="${process.version}"`, 'm'));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  describe.runIf(machineTooOld)(`started by the machine's older Node (${machineVersion})`, () => {
    it('serves on the project’s Node, and stops cleanly when told to', async () => {
      const server = await startServe({ ...ENV, DATA_DIR: data }, { node: machine });
      try {
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        expect(metrics).toMatch(new RegExp(`^nodejs_version_info\\{version="${versionOf(project)}"`, 'm'));
      } finally {
        // SIGTERM reaches the process started (the one a service manager knows), which passes it on: the server
        // shuts down cleanly and the command ends as it does.
        expect(await server.stop()).toBe(0);
      }
      await expect(fetch(server.url)).rejects.toThrow();
    });

    it('leaves no server behind when the process started is killed outright', async () => {
      const server = await startServe({ ...ENV, DATA_DIR: data }, { node: machine });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // SIGKILL cannot be passed on; the server run again sees the first process go and stops by itself.
      expect(await server.kill()).toBe('SIGKILL');
      await expect
        .poll(async () =>
          fetch(`${server.url}/healthz`).then(
            () => 'answering',
            () => 'gone',
          ),
        )
        .toBe('gone');
    });

    it('ends with the command’s own exit code', async () => {
      const run = await signpost(['no-such-command'], { DATA_DIR: data }, { node: machine });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('unknown command "no-such-command"');
    });

    it('says what to do, rather than loop or fail obscurely, when no supported Node can be found', async () => {
      // The marker the command sets when it runs itself again: seen on an old Node, the project's Node did not help.
      const run = await signpost(['help'], { DATA_DIR: data, SIGNPOST_NODE_REEXEC: '1' }, { node: machine });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `Signpost needs Node.js 24.15 or newer (24 LTS, or 26); this is ${machineVersion}. ` +
          'Run `npm install` in its folder (it brings Node 24), or install Node.js 24.\n',
      );
    });
  });

  it('knows which Nodes are supported: 24 from 24.15, and 26 or newer', () => {
    expect(['20.20.2', '22.22.0', '24.14.1', '25.9.0'].filter((v) => supported(v))).toEqual([]);
    expect(['24.15.0', '24.21.0', '26.0.0', '27.1.0'].every((v) => supported(v))).toBe(true);
  });
});
