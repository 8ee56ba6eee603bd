import { init, loadShare } from '@module-federation/enhanced/runtime';
import { describe, expect, it } from 'vitest';
import { splitFederationStartUp } from '../src/startupTasks.js';

/** Lets every queued microtask (and the ones they queue) run, but no timer: the rest of the current task. */
async function restOfTask(): Promise<void> {
  for (let i = 0; i < 200; i++) await Promise.resolve();
}

describe('splitFederationStartUp', () => {
  it('makes a shared module load in a later task, not in the rest of the one that asked for it', async () => {
    // A host with one shared module that is already there: without the plugin loadShare answers within
    // the same task (promises only).
    init({
      name: 'startup_tasks_test',
      remotes: [],
      shared: {
        lib: {
          version: '1.0.0',
          lib: () => ({ answer: 42 }),
          shareConfig: { singleton: true, requiredVersion: '^1.0.0' },
        },
      },
    });
    const before = { loaded: false };
    void loadShare('lib').then(() => (before.loaded = true));
    await restOfTask();
    expect(before.loaded).toBe(true);

    splitFederationStartUp();
    const after = { loaded: false };
    const loading = loadShare<{ answer: number }>('lib').then((factory) => {
      after.loaded = true;
      return factory;
    });
    await restOfTask();
    expect(after.loaded).toBe(false);
    const factory = await loading;
    expect(factory ? factory()?.answer : undefined).toBe(42);
  });
});
