// Reads a Dockerfile and replays its stages on this machine, without a Docker engine: each stage gets its own
// folder standing for its root filesystem, COPY copies (from the build context, honouring the
// .dockerignore, or from an earlier stage's folder), RUN runs the command with `sh -c` in the stage's
// WORKDIR, and the final stage's ENTRYPOINT/CMD can be started from its folder. The base image's own files
// are not reproduced: RUN uses this machine's sh, Node and npm, so the caller puts the same Node major as
// the image first on PATH. Instructions this replay does not understand fail loudly, so the Dockerfile and
// its replay cannot drift apart silently.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  /** The image or earlier stage it starts FROM, variables substituted. */
  from: string;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  globalArgs: Map<string, string | undefined>;
  stages: Stage[];
}

/** Joins continuation lines, drops comments and blank lines, splits into stages. */
export function parseDockerfile(text: string): ParsedDockerfile {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const start = index;
    let line = lines[index];
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && index + 1 < lines.length) {
      index++;
      const next = lines[index];
      if (/^\s*#/.test(next)) continue;
      line = line.replace(/\\\s*$/, ' ') + next;
    }
    const match = /^\s*(\S+)\s*(.*)$/.exec(line)!;
    instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start + 1 });
  }

  const globalArgs = new Map<string, string | undefined>();
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!from) throw new Error(`line ${instruction.line}: FROM ${instruction.args} is not understood`);
      stages.push({ name: from[2] ?? String(stages.length), from: from[1], instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG')
        throw new Error(`line ${instruction.line}: only ARG may come before the first FROM`);
      const [name, value] = splitArg(instruction.args);
      globalArgs.set(name, value);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  for (const stage of stages) stage.from = substitute(stage.from, Object.fromEntries(globalArgs));
  return { globalArgs, stages };
}

function splitArg(args: string): [string, string | undefined] {
  const equals = args.indexOf('=');
  if (equals < 0) return [args.trim(), undefined];
  return [args.slice(0, equals).trim(), unquote(args.slice(equals + 1).trim())];
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}

/** ${NAME} and $NAME from `vars`; unknown names become empty, as in Docker. */
export function substitute(text: string, vars: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (_, braced: string | undefined, bare: string | undefined) => vars[(braced ?? bare)!] ?? '',
  );
}

/** `K=V K2="v 2"` (ENV and LABEL syntax) to pairs. */
export function splitAssignments(args: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pattern = /(\w+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
  for (const match of args.matchAll(pattern)) pairs.push([match[1], unquote(match[2])]);
  return pairs;
}

/** Exec form `["a", "b"]`. */
function execForm(args: string, line: number): string[] {
  try {
    const parsed: unknown = JSON.parse(args);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed;
  } catch {
    // reported below
  }
  throw new Error(`line ${line}: only the exec form ["command", "arg"] is replayed, got ${args}`);
}

/** A .dockerignore: patterns matched against context-relative paths, a match on a parent excludes the child. */
export function dockerignoreMatcher(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const cleaned = posix
        .normalize(negated ? line.slice(1).trim() : line)
        .replace(/^\/+/, '')
        .replace(/\/+$/, '');
      return { negated, regex: globRegex(cleaned) };
    });
  return (path) => {
    const parents = path.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'));
    let excluded = false;
    for (const pattern of patterns) {
      if (parents.some((candidate) => pattern.regex.test(candidate))) excluded = !pattern.negated;
    }
    return excluded;
  };
}

function globRegex(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '*' && pattern[index + 1] === '*') {
      index++;
      if (pattern[index + 1] === '/') {
        index++;
        source += '(?:.*/)?';
      } else {
        source += '.*';
      }
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/** A token in a RUN command that names an absolute path (other than /dev/null): it would escape the replay. */
export function absolutePathIn(command: string): string | undefined {
  return /(?:^|[\s;|&(<>='"])(\/(?!dev\/null\b)[\w.-][^\s;|&)'"]*)/.exec(command)?.[1];
}

export interface ReplayOptions {
  dockerfile: ParsedDockerfile;
  /** The build context (the repository root). */
  context: string;
  /** Its .dockerignore text. */
  dockerignore: string;
  /** Folder for the stages' root folders (created). */
  workDir: string;
  buildArgs?: Record<string, string>;
  /** Environment every RUN starts from (PATH with the image's Node major first, HOME for the npm cache...). */
  baseEnv: Record<string, string>;
  /** Stop after this stage (default: the last). */
  target?: string;
  /** Told after each RUN or COPY that succeeded: how long it took and what it printed. */
  onStep?: (event: { stage: string; command: string; ms: number; output: string }) => void;
}

export interface ReplayedStage {
  name: string;
  from: string;
  root: string;
  env: Record<string, string>;
  workdir: string;
  user: string | undefined;
  entrypoint: string[];
  cmd: string[];
  expose: string[];
}

export class RunFailedError extends Error {
  constructor(
    readonly stage: string,
    readonly command: string,
    readonly output: string,
  ) {
    super(`RUN in stage "${stage}" failed: ${command}\n${output.slice(-4_000)}`);
  }
}

function runShell(
  command: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Moves `source` to `target`, merging into folders that already exist there. */
function moveInto(source: string, target: string): void {
  if (!existsSync(target) || !statSync(target).isDirectory() || !statSync(source).isDirectory()) {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(source, target);
    return;
  }
  for (const entry of readdirSync(source)) moveInto(join(source, entry), join(target, entry));
}

/**
 * Replays the `target` stage (default: the last) and the stages it needs, like BuildKit: stages that do not
 * need each other run at the same time. A COPY --from moves the files instead of copying them when it is
 * the only instruction that reads that stage (node_modules trees are large); the result is the same.
 */
export async function replay(options: ReplayOptions): Promise<ReplayedStage> {
  const { dockerfile, context } = options;
  const ignored = dockerignoreMatcher(options.dockerignore);
  const buildArgs = options.buildArgs ?? {};
  const stages = new Map<string, ReplayedStage>();
  const indexOf = new Map(dockerfile.stages.map((stage, index) => [stage.name, index]));
  const targetIndex = options.target ? (indexOf.get(options.target) ?? -1) : dockerfile.stages.length - 1;
  if (targetIndex < 0) throw new Error(`no stage named ${options.target}`);

  // The earlier stages each stage reads (FROM it or COPY --from it), and how many instructions read each.
  const needs = dockerfile.stages.map((stage, stageIndex) => {
    const names = [stage.from, ...stage.instructions.map((instruction) => copyFrom(instruction))];
    return [...new Set(names)].filter(
      (name): name is string => name !== undefined && (indexOf.get(name) ?? Infinity) < stageIndex,
    );
  });
  const readCount = new Map<string, number>();
  dockerfile.stages.forEach((stage, stageIndex) => {
    if (needs[stageIndex].includes(stage.from)) readCount.set(stage.from, (readCount.get(stage.from) ?? 0) + 1);
    for (const instruction of stage.instructions) {
      const from = copyFrom(instruction);
      if (from) readCount.set(from, (readCount.get(from) ?? 0) + 1);
    }
  });

  const running = new Map<number, Promise<ReplayedStage>>();
  const replayStage = (stageIndex: number): Promise<ReplayedStage> => {
    let promise = running.get(stageIndex);
    if (!promise) {
      promise = Promise.all(needs[stageIndex].map((name) => replayStage(indexOf.get(name)!))).then(() =>
        replayOne(stageIndex),
      );
      running.set(stageIndex, promise);
    }
    return promise;
  };

  const replayOne = async (stageIndex: number): Promise<ReplayedStage> => {
    const stage = dockerfile.stages[stageIndex];
    const root = join(options.workDir, `stage-${stageIndex}-${stage.name}`);
    const parent = stages.get(stage.from);
    mkdirSync(root, { recursive: true });
    if (parent) cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true });
    const current: ReplayedStage = {
      name: stage.name,
      from: parent ? parent.from : stage.from,
      root,
      env: { ...parent?.env },
      workdir: parent?.workdir ?? '/',
      user: parent?.user,
      entrypoint: parent?.entrypoint ?? [],
      cmd: parent?.cmd ?? [],
      expose: [...(parent?.expose ?? [])],
    };
    const args: Record<string, string> = {};
    const inRoot = (path: string) => join(root, posix.resolve(current.workdir, path));

    for (const instruction of stage.instructions) {
      const vars = { ...args, ...current.env };
      const where = `line ${instruction.line}`;
      switch (instruction.keyword) {
        case 'ARG': {
          const [name, value] = splitArg(instruction.args);
          const fallback = value ?? dockerfile.globalArgs.get(name);
          const chosen = buildArgs[name] ?? fallback;
          if (chosen !== undefined) args[name] = chosen;
          break;
        }
        case 'ENV':
          for (const [name, value] of splitAssignments(substitute(instruction.args, vars))) current.env[name] = value;
          break;
        case 'WORKDIR':
          current.workdir = posix.resolve(current.workdir, substitute(instruction.args, vars));
          mkdirSync(join(root, current.workdir), { recursive: true });
          break;
        case 'USER':
          current.user = substitute(instruction.args, vars);
          break;
        case 'EXPOSE':
          current.expose.push(...instruction.args.split(/\s+/));
          break;
        case 'ENTRYPOINT':
          current.entrypoint = execForm(instruction.args, instruction.line);
          break;
        case 'CMD':
          current.cmd = execForm(instruction.args, instruction.line);
          break;
        case 'LABEL':
          break;
        case 'COPY': {
          const copyStarted = Date.now();
          const words = substitute(instruction.args, vars).split(/\s+/);
          const flags = words.filter((word) => word.startsWith('--'));
          const paths = words.filter((word) => !word.startsWith('--'));
          if (paths.length < 2 || paths.some((path) => /[*?[]/.test(path) || path.startsWith('['))) {
            throw new Error(`${where}: COPY ${instruction.args}: the replay copies plain paths only`);
          }
          for (const flag of flags) {
            if (!/^--(from|chown|chmod|link)(=|$)/.test(flag))
              throw new Error(`${where}: COPY flag ${flag} is not replayed`);
          }
          const fromName = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
          const destination = paths.at(-1)!;
          const sources = paths.slice(0, -1);
          const intoFolder = destination.endsWith('/') || sources.length > 1;
          for (const source of sources) {
            let sourcePath: string;
            let filter: ((path: string) => boolean) | undefined;
            let mayMove = false;
            if (fromName) {
              const from = stages.get(fromName);
              if (!from) throw new Error(`${where}: COPY --from=${fromName}: no such earlier stage`);
              sourcePath = join(from.root, posix.resolve('/', source));
              mayMove = readCount.get(fromName) === 1;
            } else {
              sourcePath = join(context, posix.normalize(source));
              if (relative(context, sourcePath).startsWith('..'))
                throw new Error(`${where}: ${source} is outside the build context`);
              filter = (path) => {
                const inContext = relative(context, path).split('\\').join('/');
                return inContext === '' || !ignored(inContext);
              };
            }
            if (!existsSync(sourcePath))
              throw new Error(
                `${where}: COPY source ${source} does not exist${fromName ? ` in stage ${fromName}` : ''}`,
              );
            const isFolder = statSync(sourcePath).isDirectory();
            const target =
              isFolder || !intoFolder ? inRoot(destination) : join(inRoot(destination), posix.basename(source));
            if (mayMove) {
              moveInto(sourcePath, target);
            } else {
              mkdirSync(isFolder ? target : dirname(target), { recursive: true });
              cpSync(sourcePath, target, { recursive: true, verbatimSymlinks: true, filter });
            }
          }
          options.onStep?.({
            stage: stage.name,
            command: `COPY ${instruction.args}`,
            ms: Date.now() - copyStarted,
            output: '',
          });
          break;
        }
        case 'RUN': {
          if (instruction.args.startsWith('[')) throw new Error(`${where}: RUN in exec form is not replayed`);
          const absolute = absolutePathIn(instruction.args);
          if (absolute)
            throw new Error(
              `${where}: RUN names the absolute path ${absolute}; the replay runs it in a temporary folder`,
            );
          const env = { ...options.baseEnv, ...args, ...current.env };
          // The image's PATH comes from the base image; here the caller's PATH stands in for it.
          env.PATH = options.baseEnv.PATH ?? '';
          const started = Date.now();
          const result = await runShell(instruction.args, join(root, current.workdir), env);
          if (result.code !== 0) throw new RunFailedError(stage.name, instruction.args, result.output);
          options.onStep?.({
            stage: stage.name,
            command: instruction.args,
            ms: Date.now() - started,
            output: result.output,
          });
          break;
        }
        default:
          throw new Error(
            `${where}: ${instruction.keyword} is not replayed; teach deploy/image/test/dockerfile.ts about it`,
          );
      }
    }
    stages.set(stage.name, current);
    return current;
  };

  // Every stage started is awaited, so a failure in one is not left running behind another's.
  const target = replayStage(targetIndex);
  const results = await Promise.allSettled([target, ...running.values()]);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return target;
}

function copyFrom(instruction: Instruction): string | undefined {
  return instruction.keyword === 'COPY' ? /--from=(\S+)/.exec(instruction.args)?.[1] : undefined;
}

/** The command the replayed stage starts with: ENTRYPOINT + (args or CMD), image paths mapped into its folder. */
export function startCommand(stage: ReplayedStage, args?: string[]): { command: string; args: string[]; cwd: string } {
  const words = [...stage.entrypoint, ...(args ?? stage.cmd)].map((word) =>
    word.startsWith('/') && existsSync(join(stage.root, word)) ? join(stage.root, word) : word,
  );
  if (words.length === 0) throw new Error(`stage ${stage.name} has neither ENTRYPOINT nor CMD`);
  return { command: words[0], args: words.slice(1), cwd: join(stage.root, stage.workdir) };
}

/** Reads a Dockerfile from disk. */
export function readDockerfile(path: string): ParsedDockerfile {
  return parseDockerfile(readFileSync(path, 'utf8'));
}
