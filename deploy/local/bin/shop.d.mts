// Types for shop.mjs, which stays plain JavaScript because it runs before `npm ci` (no TypeScript yet).
// The tests import it; keep these in step with the exports there.
import type { SpawnOptions } from 'node:child_process';

export declare const ROOT: string;
export declare const MIN_NODE: readonly number[];
export declare const RUNTIME_MAJOR: number;

/** True when `version` (like "v20.20.2") is at least MIN_NODE. */
export declare function nodeIsRecentEnough(version?: string): boolean;

/** Why `npm ci` must run, or undefined when the install is current. */
export declare function installReason(root?: string): string | undefined;

/** Runs a command with inherited stdio; resolves with its exit code. */
export declare function run(command: string, args: readonly string[], options?: SpawnOptions): Promise<number>;
