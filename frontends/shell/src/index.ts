import { shareRefreshRenderers } from './shareRefreshRenderers.js';
// In the entry, not in bootstrap: the stylesheet is then a <link> in index.html's head, fetched with the
// HTML and applied to the home page's first paint that the HTML carries (gateway/src/first-paint.ts).
import './styles.css';

if (__SHOP_DEV__) shareRefreshRenderers();

// ICU initialised on another thread before the home page makes its first Intl object (src/icuWarmup.js).
// A URL, not new Worker(new URL(...)): as a worker entry rspack would bundle the federation runtime into it.
const icuWarmup = new URL('./icuWarmup.js', import.meta.url);
if (typeof Worker === 'function') new Worker(icuWarmup);

// Module Federation needs an async boundary: shared modules (React, the router) are negotiated with the
// remotes before any of them is evaluated.
void import('./bootstrap.js');
