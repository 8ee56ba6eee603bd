// The remotes this shell loads, where their manifests live, and the modules each one exposes (declared
// by hand: the federation dts plugin is off, see packages/ui/build/rspack-app.ts).
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

export type RemoteName = 'storefront' | 'admin';
export type Branch = 'army' | 'navy' | 'airforce';

/** What each exposed module's default export is. Keep in step with the remotes' rspack.config.ts. */
export interface RemoteModules {
  'storefront/Home': ComponentType;
  'storefront/Track': ComponentType;
  'storefront/BranchPage': ComponentType<{ branch: Branch }>;
  'storefront/PayPage': ComponentType<{ orderId: string }>;
  'storefront/Support': ComponentType;
  'storefront/Faq': ComponentType;
  'storefront/Returns': ComponentType;
  'storefront/Privacy': ComponentType;
  'storefront/Terms': ComponentType;
  'storefront/Sitemap': ComponentType;
  'storefront/Legal': ComponentType;
  'storefront/Business': ComponentType;
  'admin/AdminApp': ComponentType;
  'admin/EmailDiagnostics': ComponentType;
}
export type RemoteModuleId = keyof RemoteModules;

/** People-facing names of the areas each remote draws. */
export const remoteAreaNames: Record<RemoteName, string> = {
  storefront: 'shop',
  admin: 'admin area',
};

function entryUrl(name: RemoteName): string {
  // Behind the gateway the remotes live on the same origin as the shell, and the built shell loads their
  // remoteEntry.js directly: its federation runtime is built without the manifest snapshot code
  // (packages/ui/build/rspack-app.ts). In dev each remote has its own dev server and manifest.
  return __SHOP_DEV__ ? __SHOP_DEV_REMOTES__[name] : `/remotes/${name}/remoteEntry.js`;
}

function remoteEntry(name: RemoteName) {
  return { name: `shop_${name}`, alias: name, entry: entryUrl(name) };
}

export function registerShopRemotes(): void {
  registerRemotes([remoteEntry('storefront'), remoteEntry('admin')]);
}

/** Forgets a failed remote (manifest, entry script, module cache) so the next load fetches it again. */
export function resetRemote(name: RemoteName): void {
  registerRemotes([remoteEntry(name)], { force: true });
}

export function remoteOf(id: RemoteModuleId): RemoteName {
  return id.split('/')[0] as RemoteName;
}

/** Loads one exposed module and returns its default export (a React component). */
export async function loadRemoteComponent<K extends RemoteModuleId>(id: K): Promise<RemoteModules[K]> {
  const mod = await loadRemote<{ default?: RemoteModules[K] }>(id);
  if (!mod || typeof mod.default !== 'function') {
    throw new Error(`The module "${id}" did not provide a page to show.`);
  }
  return mod.default;
}
