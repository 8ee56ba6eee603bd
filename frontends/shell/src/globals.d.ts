/** Set by DefinePlugin: true under the rspack dev server. */
declare const __SHOP_DEV__: boolean;
/** Set by DefinePlugin: the remotes' manifests on their dev servers. */
declare const __SHOP_DEV_REMOTES__: { storefront: string; admin: string };

declare module '*.css';
