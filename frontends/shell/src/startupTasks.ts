// Start-up in short tasks (issue 20, Lighthouse's Total Blocking Time on a throttled phone CPU: every task's
// time over 50 ms counts). The Module Federation runtime chains its steps with promises, so a shared
// module's loading, a remote entry's arrival, its container's set-up, its module's chunks and the module's
// evaluation all ran in whichever task the previous step finished in. This runtime plugin makes each of
// those steps start in a task of its own (a setTimeout(0) hop, about a millisecond each); what they do and
// in what order is unchanged.
import {
  registerGlobalPlugins,
  registerPlugins,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';

/** Resolves in a later task, so the work before and after it are two tasks instead of one long one. */
export const nextTask = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Registers the plugin on the shell's federation instance and, as a global plugin, on each remote's (created
 * when its container is set up: its module's shared modules are loaded through it); before the first shared
 * module is loaded.
 */
export function splitFederationStartUp(): void {
  const plugin: ModuleFederationRuntimePlugin = {
    name: 'shop-startup-tasks',
    // Each shared module's chunk loading (the script elements) in its own task, after the share scope's set-up.
    async beforeLoadShare(args) {
      await nextTask();
      return args;
    },
    // The remote entry's evaluation, then its container's set-up (its shared modules registered).
    async beforeInitContainer(args) {
      await nextTask();
      return args;
    },
    // The container's set-up, then the exposed module's chunks requested. (An async hook's declared type
    // returns void, but the runtime waits for what a listener returns: runtime-core's utils/hooks/asyncHook.)
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    async beforeGetExpose() {
      await nextTask();
    },
    // The exposed module's chunks arriving, then its evaluation (the module and what it imports).
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    async beforeExecuteFactory() {
      await nextTask();
    },
  };
  registerGlobalPlugins([plugin]);
  registerPlugins([plugin]);
}
