// A small renderer for the subset of Go templates and Helm/sprig functions this chart uses, so the test
// can render the chart without a helm binary and check the resulting manifests. It fails loudly on
// anything it does not know (a new function or construct in the templates must be added here, which is
// the point: nothing renders by accident).
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';

type Value = unknown;
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; source: string }
  | { kind: 'if'; branches: { condition: string; body: Node[] }[]; otherwise: Node[] }
  | { kind: 'range'; vars: string[]; source: string; body: Node[] }
  | { kind: 'with'; source: string; body: Node[]; otherwise: Node[] }
  | { kind: 'define'; name: string; body: Node[] };

interface Token {
  kind: 'text' | 'action';
  text: string;
}

/** Splits a template into text and actions, applying the `{{-` and `-}}` whitespace trimming. */
function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g;
  let last = 0;
  let trimNext = false;
  for (const match of template.matchAll(pattern)) {
    let text = template.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (match[1]) text = text.replace(/\s+$/, '');
    if (text) tokens.push({ kind: 'text', text });
    const inner = match[2].trim();
    if (!inner.startsWith('/*')) tokens.push({ kind: 'action', text: inner });
    trimNext = Boolean(match[3]);
    last = match.index! + match[0].length;
  }
  let rest = template.slice(last);
  if (trimNext) rest = rest.replace(/^\s+/, '');
  if (rest) tokens.push({ kind: 'text', text: rest });
  return tokens;
}

function parse(tokens: Token[]): { nodes: Node[]; defines: Map<string, Node[]> } {
  const defines = new Map<string, Node[]>();
  let position = 0;
  function block(stops: RegExp): { nodes: Node[]; stop: string } {
    const nodes: Node[] = [];
    while (position < tokens.length) {
      const token = tokens[position++];
      if (token.kind === 'text') {
        nodes.push({ kind: 'text', text: token.text });
        continue;
      }
      const action = token.text;
      if (stops.test(action)) return { nodes, stop: action };
      let match: RegExpMatchArray | null;
      if ((match = action.match(/^if\s+([\s\S]+)$/))) {
        const branches = [{ condition: match[1], body: [] as Node[] }];
        let otherwise: Node[] = [];
        for (;;) {
          const inner = block(/^(else|end)\b/);
          const current = branches[branches.length - 1];
          current.body = inner.nodes;
          const elseIf = inner.stop.match(/^else\s+if\s+([\s\S]+)$/);
          if (elseIf) branches.push({ condition: elseIf[1], body: [] });
          else if (inner.stop === 'else') {
            otherwise = block(/^end$/).nodes;
            break;
          } else break;
        }
        nodes.push({ kind: 'if', branches, otherwise });
      } else if ((match = action.match(/^range\s+(?:(\$\w+)(?:\s*,\s*(\$\w+))?\s*:=\s*)?([\s\S]+)$/))) {
        const vars = [match[1], match[2]].filter(Boolean) as string[];
        const inner = block(/^end$/);
        nodes.push({ kind: 'range', vars, source: match[3], body: inner.nodes });
      } else if ((match = action.match(/^with\s+([\s\S]+)$/))) {
        const inner = block(/^(else|end)$/);
        const otherwise = inner.stop === 'else' ? block(/^end$/).nodes : [];
        nodes.push({ kind: 'with', source: match[1], body: inner.nodes, otherwise });
      } else if ((match = action.match(/^define\s+"([^"]+)"$/))) {
        defines.set(match[1], block(/^end$/).nodes);
      } else if (/^(end|else)\b/.test(action)) {
        throw new Error(`unexpected {{ ${action} }}`);
      } else {
        nodes.push({ kind: 'action', source: action });
      }
    }
    return { nodes, stop: '' };
  }
  const { nodes } = block(/(?!)/);
  return { nodes, defines };
}

/** Splits at a separator outside quotes and parentheses. */
function splitTop(source: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '"' && source[index - 1] !== '\\') quoted = !quoted;
    if (!quoted && char === '(') depth++;
    if (!quoted && char === ')') depth--;
    if (!quoted && depth === 0 && separator.test(char)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

const isEmpty = (value: Value) =>
  value === undefined ||
  value === null ||
  value === false ||
  value === 0 ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);

const str = (value: Value): string => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

function field(value: Value, path: string[]): Value {
  let current = value;
  for (const key of path) {
    if (current === undefined || current === null) return undefined;
    if (typeof current !== 'object') throw new Error(`cannot read .${key} of a ${typeof current}`);
    current = (current as Record<string, Value>)[key];
  }
  return current;
}

function deepMerge(target: Record<string, Value>, source: Record<string, Value>): Record<string, Value> {
  for (const [key, value] of Object.entries(source ?? {})) {
    const existing = target[key];
    if (existing && typeof existing === 'object' && !Array.isArray(existing) && value && typeof value === 'object' && !Array.isArray(value)) {
      deepMerge(existing as Record<string, Value>, value as Record<string, Value>);
    } else if (!(key in target)) {
      target[key] = structuredClone(value);
    }
  }
  return target;
}

interface Scope {
  dot: Value;
  vars: Map<string, Value>;
}

export class HelmLite {
  private readonly defines = new Map<string, Node[]>();
  private readonly files: { name: string; nodes: Node[] }[] = [];

  constructor(templates: Record<string, string>) {
    for (const [name, text] of Object.entries(templates)) {
      const { nodes, defines } = parse(tokenize(text));
      for (const [defineName, body] of defines) this.defines.set(defineName, body);
      this.files.push({ name, nodes });
    }
  }

  /** Renders every non-partial template (helm skips files starting with `_` and NOTES.txt is separate). */
  render(root: Value): Record<string, string> {
    const output: Record<string, string> = {};
    for (const file of this.files) {
      if (file.name.startsWith('_')) continue;
      output[file.name] = this.run(file.nodes, { dot: root, vars: new Map([['$', root]]) });
    }
    return output;
  }

  private run(nodes: Node[], scope: Scope): string {
    let out = '';
    for (const node of nodes) {
      switch (node.kind) {
        case 'text':
          out += node.text;
          break;
        case 'action': {
          const assign = node.source.match(/^(\$\w+)\s*:=\s*([\s\S]+)$/);
          if (assign) scope.vars.set(assign[1], this.pipeline(assign[2], scope));
          else out += str(this.pipeline(node.source, scope));
          break;
        }
        case 'if': {
          const branch = node.branches.find((candidate) => !isEmpty(this.pipeline(candidate.condition, scope)));
          out += this.run(branch ? branch.body : node.otherwise, { dot: scope.dot, vars: new Map(scope.vars) });
          break;
        }
        case 'with': {
          const value = this.pipeline(node.source, scope);
          out += isEmpty(value) ? this.run(node.otherwise, scope) : this.run(node.body, { dot: value, vars: new Map(scope.vars) });
          break;
        }
        case 'range': {
          const value = this.pipeline(node.source, scope);
          if (isEmpty(value)) break;
          const items: [Value, Value][] = Array.isArray(value)
            ? value.map((item, index) => [index, item])
            : Object.keys(value as object)
                .sort()
                .map((key) => [key, (value as Record<string, Value>)[key]]);
          for (const [key, item] of items) {
            const vars = new Map(scope.vars);
            if (node.vars.length === 1) vars.set(node.vars[0], item);
            if (node.vars.length === 2) {
              vars.set(node.vars[0], key);
              vars.set(node.vars[1], item);
            }
            out += this.run(node.body, { dot: item, vars });
          }
          break;
        }
        case 'define':
          break;
      }
    }
    return out;
  }

  private pipeline(source: string, scope: Scope): Value {
    let result: Value = undefined;
    splitTop(source, /\|/).forEach((command, index) => {
      result = this.command(command, scope, index === 0 ? [] : [result]);
    });
    return result;
  }

  private command(source: string, scope: Scope, piped: Value[]): Value {
    const terms = splitTop(source, /\s/);
    const [head, ...rest] = terms;
    if (/^[a-zA-Z]\w*$/.test(head) && !['true', 'false', 'nil'].includes(head)) {
      const args = [...rest.map((term) => this.term(term, scope)), ...piped];
      return this.call(head, args, scope);
    }
    if (rest.length || piped.length) throw new Error(`cannot apply arguments to ${head} in "${source}"`);
    return this.term(head, scope);
  }

  private term(term: string, scope: Scope): Value {
    if (term.startsWith('"')) return JSON.parse(term);
    if (/^-?\d+(\.\d+)?$/.test(term)) return Number(term);
    if (term === 'true' || term === 'false') return term === 'true';
    if (term === 'nil') return null;
    if (term === '.') return scope.dot;
    const paren = term.match(/^\(([\s\S]*)\)((?:\.\w+)*)$/);
    if (paren) return field(this.pipeline(paren[1], scope), paren[2].split('.').filter(Boolean));
    if (term.startsWith('.')) return field(scope.dot, term.split('.').filter(Boolean));
    if (term.startsWith('$')) {
      const [name, ...path] = term.split('.');
      if (!scope.vars.has(name)) throw new Error(`undefined variable ${name}`);
      return field(scope.vars.get(name), path);
    }
    if (/^[a-zA-Z]\w*$/.test(term)) return this.call(term, [], scope);
    throw new Error(`cannot read the term "${term}"`);
  }

  private call(name: string, args: Value[], scope: Scope): Value {
    switch (name) {
      case 'include': {
        const body = this.defines.get(str(args[0]));
        if (!body) throw new Error(`no template named "${str(args[0])}"`);
        return this.run(body, { dot: args[1], vars: new Map([['$', args[1]]]) });
      }
      case 'tpl': {
        const { nodes } = parse(tokenize(str(args[0])));
        return this.run(nodes, { dot: args[1], vars: new Map([['$', args[1]]]) });
      }
      case 'dict': {
        const out: Record<string, Value> = {};
        for (let index = 0; index < args.length; index += 2) out[str(args[index])] = args[index + 1];
        return out;
      }
      case 'merge':
        return args.slice(1).reduce<Record<string, Value>>((target, source) => deepMerge(target, source as Record<string, Value>), args[0] as Record<string, Value>);
      case 'default':
        return isEmpty(args[1]) ? args[0] : args[1];
      case 'quote':
        return JSON.stringify(str(args[0]));
      case 'toString':
        return args[0] === undefined || args[0] === null ? '<nil>' : str(args[0]);
      case 'ne':
        return args[0] !== args[1];
      case 'eq':
        return args[0] === args[1];
      case 'not':
        return isEmpty(args[0]);
      case 'printf': {
        let index = 1;
        return str(args[0]).replace(/%[sdv]/g, () => str(args[index++]));
      }
      case 'trunc':
        return str(args[1]).slice(0, Number(args[0]));
      case 'trimSuffix':
        return str(args[1]).endsWith(str(args[0])) ? str(args[1]).slice(0, -str(args[0]).length) : str(args[1]);
      case 'replace':
        return str(args[2]).replaceAll(str(args[0]), str(args[1]));
      case 'toYaml':
        return isEmpty(args[0]) && typeof args[0] === 'object' ? (Array.isArray(args[0]) ? '[]' : '{}') : stringify(args[0]).replace(/\n$/, '');
      case 'nindent':
        return '\n' + indent(Number(args[0]), str(args[1]));
      case 'indent':
        return indent(Number(args[0]), str(args[1]));
      case 'sha256sum':
        return createHash('sha256').update(str(args[0])).digest('hex');
      default:
        throw new Error(`helm-lite does not know the function "${name}" (scope: ${typeof scope.dot})`);
    }
  }
}

function indent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}
