// The storefront is a Module Federation remote: the shell loads its pages through remoteEntry.js /
// mf-manifest.json (see rspack.config.ts `exposes`). This entry exists because rspack needs one; it
// does nothing on its own.
export {};
