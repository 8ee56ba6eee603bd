// The shop's name in a module of its own, without zod: the shell's header and footer import it on every
// first load, and "sideEffects": false (package.json) lets a bundle take this file alone.

/** The shop's name, the same in the site's header, the back office and every email. */
export const shopName = 'Tactical Gear Co.';
