// Dev only: lets every app's React Refresh runtime find the one React renderer.
//
// Each app (shell, storefront, admin) bundles its own React Refresh runtime, but React itself is a
// shared singleton loaded once by the shell. A refresh runtime learns about renderers that inject
// after it (through hook.inject) or that are listed in hook.renderers. The stand-in hook the shell's
// runtime creates never fills hook.renderers, so the remotes' runtimes (loaded later) would never see
// React and their hot updates would apply without re-rendering. Recording renderers there, as the real
// React DevTools hook does, fixes that. Must run before react-dom loads (see index.ts).
interface DevtoolsHook {
  renderers?: Map<number, unknown>;
  inject?: (renderer: unknown) => number;
}

export function shareRefreshRenderers(): void {
  const hook = (window as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: DevtoolsHook }).__REACT_DEVTOOLS_GLOBAL_HOOK__;
  if (!hook?.renderers || typeof hook.inject !== 'function') return;
  const inject = hook.inject;
  const renderers = hook.renderers;
  hook.inject = function (this: DevtoolsHook, renderer: unknown) {
    const id = inject.call(this, renderer);
    if (!renderers.has(id)) renderers.set(id, renderer);
    return id;
  };
}
