import { shareRefreshRenderers } from './shareRefreshRenderers.js';
import { splitFederationStartUp } from './startupTasks.js';
// In the entry, not in bootstrap: the stylesheet is then a <link> in index.html's head, fetched with the
// HTML and applied to the home page's first paint that the HTML carries (gateway/src/first-paint.ts).
import './styles.css';

if (__SHOP_DEV__) shareRefreshRenderers();

// Module Federation needs an async boundary: shared modules (React, the router) are negotiated with the
// remotes before any of them is evaluated. The shared modules' loading starts in a task of its own, not in
// the one that evaluates this entry with the federation runtime's set-up (Total Blocking Time).
// The federation runtime's steps are split into tasks from the first shared module on (startupTasks.ts).
setTimeout(() => {
  splitFederationStartUp();
  void import('./bootstrap.js');
}, 0);
