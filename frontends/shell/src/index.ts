import { shareRefreshRenderers } from './shareRefreshRenderers.js';

if (__SHOP_DEV__) shareRefreshRenderers();

// Module Federation needs an async boundary: shared modules (React, the router) are negotiated with the
// remotes before any of them is evaluated.
void import('./bootstrap.js');
